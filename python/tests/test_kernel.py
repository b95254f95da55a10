"""The Python module without a GPU: parsing, diagnostics as loopy.Error,
fixed sizes, variants, CUDA text, argument shapes and JSON."""

import json
from pathlib import Path

import pytest

import loopy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MATMUL = EXAMPLES / "matmul.loop"

LIN_COMB = """\
kernel lin_comb(n: index;
                a: f32, x: in f32[n],
                b: f32, y: in f32[n],
                z: out f32[n]) {
  domain { [i] : 0 <= i < n }
  z[i] = a * x[i] + b * y[i];
}
"""

UNDECLARED = """\
kernel k(n: index; a: out f32[n]) {
  domain { [i] : 0 <= i < n }
  a[i] = b[i];
}
"""

TWO = """\
kernel first(n: index; a: out f32[n]) {
  domain { [i] : 0 <= i < n }
  a[i] = 1.0;
}
kernel second(n: index; b: out f32[n]) {
  domain { [i] : 0 <= i < n }
  b[i] = 2.0;
}
"""


def test_parse_file_and_text():
    k = loopy.Kernel(MATMUL)
    assert k.name == "matmul"
    assert k.parameters == ["n", "m", "l"]
    assert loopy.Kernel(str(MATMUL)).name == "matmul"
    assert loopy.Kernel(MATMUL.read_text()).name == "matmul"
    assert loopy.Kernel(LIN_COMB).parameters == ["n"]


def test_error_carries_file_line_column():
    with pytest.raises(loopy.Error) as e:
        loopy.Kernel(UNDECLARED, file_name="undeclared.loop")
    assert e.value.file == "undeclared.loop"
    assert (e.value.line, e.value.column) == (3, 10)
    assert e.value.message == "use of undeclared array 'b'; did you mean 'a'?"
    # The whole diagnostic as loopyc prints it, caret included.
    assert str(e.value).startswith("undeclared.loop:3:10: error: use of undeclared")
    assert "  a[i] = b[i];\n         ^" in str(e.value)


def test_error_of_a_file():
    with pytest.raises(loopy.Error) as e:
        loopy.Kernel(EXAMPLES / "no-such-kernel.loop")
    assert "cannot open" in e.value.message
    assert e.value.file is None and e.value.line == 0


def test_errors_without_location():
    k = loopy.Kernel(MATMUL)
    with pytest.raises(loopy.Error, match="has no index parameter 'q'"):
        k.fix(q=3)
    with pytest.raises(TypeError, match="must be an integer"):
        k.fix(n=2.5)
    with pytest.raises(loopy.Error, match="needs a value for m, l"):
        k.fix(n=64).tune()


def test_several_kernels():
    assert loopy.kernel_names(TWO) == ["first", "second"]
    assert loopy.Kernel(TWO, "second").name == "second"
    with pytest.raises(loopy.Error, match="holds 2 kernels; name the one you want"):
        loopy.Kernel(TWO)
    with pytest.raises(loopy.Error, match="no kernel 'third'"):
        loopy.Kernel(TWO, "third")


def test_fix_returns_a_new_kernel():
    k = loopy.Kernel(MATMUL)
    f = k.fix(n=64, m=32, l=16)
    assert f.sizes == {"n": 64, "m": 32, "l": 16}
    assert k.sizes == {}
    s = f.set(n=128)
    assert s.sizes == {"n": 128, "m": 32, "l": 16}
    assert f.sizes["n"] == 64


def test_argument_shapes_at_the_sizes():
    k = loopy.Kernel(MATMUL).fix(n=64, l=16)
    args = {a.name: a for a in k.arguments()}
    assert [a.kind for a in k.arguments()] == ["index"] * 3 + ["array"] * 3
    assert args["a"].shape == (64, 16) and args["a"].strides == (16, 1)
    assert args["a"].dtype == "f32" and args["a"].mode == "in"
    # m has no value yet: its extent, and the strides, are unknown.
    assert args["c"].shape == (64, -1) and args["c"].mode == "out"
    lc = {a.name: a for a in loopy.Kernel(LIN_COMB).set(n=100).arguments()}
    assert lc["a"].kind == "scalar" and lc["z"].shape == (100,)


def test_variants():
    k = loopy.Kernel(MATMUL).fix(n=256, m=256, l=256)
    vs = k.variants()
    assert len(vs) > 10
    assert [v.rank for v in vs] == list(range(len(vs)))
    assert all(v.name == v.schedule and "i:" in v.schedule for v in vs)
    assert all(v.threads >= 32 for v in vs)
    costs = [v.static_cost for v in vs]
    assert costs == sorted(costs)
    # The planner's constraints cut the list.
    few = k.planner(min_threads=256).variants()
    assert few and all(v.threads >= 256 for v in few)
    assert len(few) < len(vs)


def test_cuda_of_the_first_ranked_and_a_named_variant():
    k = loopy.Kernel(MATMUL).fix(n=256, m=256, l=256)
    vs = k.variants()
    first = k.cuda()
    assert "__global__" in first and "matmul" in first
    assert vs[0].schedule in first
    assert k.cuda(vs[0]) == first
    assert k.cuda(0) == first
    other = k.cuda(vs[3].schedule)
    assert vs[3].schedule in other and other != first
    assert k.cuda(3) == other
    with pytest.raises(loopy.Error, match="variant"):
        k.cuda("i:nonsense")


def test_fixed_sizes_are_constants_of_the_code():
    fixed = loopy.Kernel(MATMUL).fix(n=256, m=256, l=256).cuda()
    assert "const int n = 256;" in fixed and "const idx n," not in fixed
    # Sizes given with set() stay arguments of the code.
    free = loopy.Kernel(MATMUL).set(n=256, m=256, l=256).cuda()
    assert "const idx n," in free and "const int n = 256;" not in free


def test_json():
    k = loopy.Kernel(MATMUL).fix(n=128, m=128, l=128)
    doc = json.loads(k.to_json())
    assert doc["kernel"] == "matmul"
    assert doc["sizes"] == {"n": 128, "m": 128, "l": 128}
    assert [a["name"] for a in doc["arguments"]] == ["n", "m", "l", "a", "b", "c"]
    assert doc["arguments"][5]["shape"] == [128, 128]
    assert doc["variants"][0]["schedule"] == k.variants()[0].schedule
    assert len(doc["variants"]) == len(k.variants())


def test_tuning_without_a_gpu_says_so(tmp_path):
    # Where there is a GPU, tuning is gpu_test.py's.
    k = loopy.Kernel(LIN_COMB).fix(n=1000)
    try:
        k.tune(db=tmp_path / "tuning.db", budget=2)
    except loopy.Error as e:
        assert "needs a GPU" in e.message
        return
    pytest.skip("a GPU is present: gpu_test.py tunes")


def test_compile_needs_no_gpu():
    k = loopy.Kernel(MATMUL).fix(n=256, m=256, l=256)
    vs = k.variants()
    ptx = k.compile(vs[2], arch="sm_90", ptx=True)
    assert ptx.schedule == vs[2].schedule and ptx.arch == "sm_90"
    assert b".entry matmul" in ptx.binary and ptx.cuda == k.cuda(2)
    cubin = k.compile(arch="sm_90")
    assert cubin.schedule == vs[0].schedule and cubin.binary[:4] == b"\x7fELF"


def test_sizes_from_shapes():
    k = loopy.Kernel(MATMUL)
    assert k.sizes_from_shapes(a=(300, 100), b=(100, 200)) == {"n": 300, "l": 100, "m": 200}
    assert k.fix(n=300).sizes_from_shapes(c=(300, 200)) == {"m": 200}
    with pytest.raises(loopy.Error, match="size 'l' of kernel 'matmul' is 100 by 'a''s dimension 1"):
        k.sizes_from_shapes(a=(300, 100), b=(99, 200))


class _Shaped:
    """An array's shape alone: enough for a SizedKernel to pick sizes."""

    def __init__(self, *shape):
        self.shape = shape


def test_sized_kernel_reads_sizes_off_the_arrays(tmp_path):
    s = loopy.Kernel(MATMUL).sized(db=tmp_path / "tuning.db", budget=2)
    assert s.tuned == []
    try:
        s(_Shaped(300, 100), _Shaped(100, 200), _Shaped(300, 200))
    except loopy.Error as e:
        # No GPU here: the tuning at n=300, l=100, m=200 says so.
        assert "needs a GPU" in e.message
        assert s.tuned == []
        return
    pytest.skip("a GPU is present: gpu_test.py runs sized kernels")


class _CudaArrayInterface:
    """A device array known by __cuda_array_interface__ alone (as Numba's)."""

    def __init__(self, shape, typestr, strides=None):
        self.__cuda_array_interface__ = {
            "shape": shape,
            "typestr": typestr,
            "data": (0x7F0000001000, False),
            "strides": strides,
            "version": 3,
        }


def test_cuda_array_interface_view():
    view = loopy._launch_view(_CudaArrayInterface((300, 100), "<f4"))
    assert view == ("cuda_array_interface", 0x7F0000001000, [300, 100], [100, 1], "f32")
    # Strides in bytes become strides in elements; other types keep a name
    # the launch refuses.
    view = loopy._launch_view(_CudaArrayInterface((300, 100), "<f8", (8, 2400)))
    assert view[3:] == ([1, 300], "f64")
    assert loopy._launch_view(_CudaArrayInterface((4,), "<f2"))[4] == "f16"
    # The 8- and 16-bit integers by kind and bits, as the kernel names them;
    # booleans keep a name no kernel declares.
    assert loopy._launch_view(_CudaArrayInterface((4,), "|u1"))[4] == "u8"
    assert loopy._launch_view(_CudaArrayInterface((4,), "|i1"))[4] == "i8"
    assert loopy._launch_view(_CudaArrayInterface((4,), "<u2"))[4] == "u16"
    assert loopy._launch_view(_CudaArrayInterface((4,), "|b1"))[4] == "b8"
    shaped = _Shaped(3)
    assert loopy._launch_view(shaped) is shaped


def test_host_tensor_names_no_stream():
    """An array in host memory names no stream, so the launch reaches the
    module's check, which refuses it by name (PyTorch itself would raise on
    asking for a CPU tensor's stream)."""

    class Device:
        type = "cpu"

    class HostTensor:
        device = Device()

    HostTensor.__module__ = "torch"
    assert loopy._current_stream([HostTensor()]) == 0
