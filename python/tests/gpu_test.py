"""The Python module on a GPU (scripts/gpu-tests.sh runs it; pytest does not
collect it): tunes matmul at a modest size, runs the tuned kernel on CuPy
and on PyTorch arrays against a @ b, checks that wrong arrays are refused,
times a tuned kernel read back from the database (at most 0.1 s), and runs
sizes set at run time, a kernel tuned per set of sizes and a named variant.
Prints PASS or FAIL per check; exits 1 if one failed, 77 where there is
no GPU.

    python gpu_test.py [--size N] [--budget B] [--db FILE]
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import loopy

MATMUL = Path(__file__).resolve().parents[2] / "examples" / "matmul.loop"
failed = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failed.append(name)


def raises(exc, fn):
    try:
        fn()
    except exc as e:
        return str(e)
    return None


def run_cupy(t, n):
    import cupy

    a = cupy.random.uniform(-1, 1, (n, n), dtype=cupy.float32)
    b = cupy.random.uniform(-1, 1, (n, n), dtype=cupy.float32)
    c = cupy.full((n, n), cupy.nan, dtype=cupy.float32)
    t(a, b, c)
    cupy.cuda.get_current_stream().synchronize()
    err = float(cupy.abs(c - a @ b).max() / (cupy.abs(a) @ cupy.abs(b)).max())
    check("cupy matmul against a @ b", err < 1e-5, f"largest error {err:.2e}")
    # On a stream of CuPy's own (which waits for the default stream's
    # work): the launch goes on the current stream. A split reduction may
    # add in another order, so the results are close, not equal.
    s = cupy.cuda.Stream()
    c2 = cupy.full_like(c, cupy.nan)
    with s:
        t(a=a, b=b, c=c2)
    s.synchronize()
    check("cupy on a non-default stream", bool(cupy.allclose(c, c2, rtol=1e-5, atol=1e-5)))
    # Arrays known by __cuda_array_interface__ alone (as Numba's) run too.
    class InterfaceOnly:
        def __init__(self, x):
            self.__cuda_array_interface__ = x.__cuda_array_interface__

    c3 = cupy.full_like(c, cupy.nan)
    t(InterfaceOnly(a), InterfaceOnly(b), InterfaceOnly(c3))
    cupy.cuda.get_current_stream().synchronize()
    check("cupy through __cuda_array_interface__", bool(cupy.allclose(c, c3, rtol=1e-5, atol=1e-5)))
    msg = raises(ValueError, lambda: t(InterfaceOnly(a.T), b, c))
    check("transposed view refused through the interface", msg is not None and "strides" in msg, msg or "")
    msg = raises(TypeError, lambda: t(a.astype(cupy.float64), b, c))
    check("cupy float64 refused", msg is not None and "dtype f64" in msg, msg or "")
    msg = raises(ValueError, lambda: t(a[:, : n // 2], b, c))
    check("cupy wrong shape refused", msg is not None and "shape" in msg, msg or "")
    msg = raises(ValueError, lambda: t(a.T, b, c))
    check("cupy transposed view refused", msg is not None and "strides" in msg, msg or "")


def run_torch(t, n):
    import torch

    a = torch.rand(n, n, device="cuda") * 2 - 1
    b = torch.rand(n, n, device="cuda") * 2 - 1
    c = torch.full((n, n), float("nan"), device="cuda")
    t(a, b, c)
    torch.cuda.synchronize()
    ref = (a.double() @ b.double())
    err = float((c.double() - ref).abs().max() / (a.abs().double() @ b.abs().double()).max())
    check("torch matmul against a @ b", err < 1e-5, f"largest error {err:.2e}")
    s = torch.cuda.Stream()
    c2 = torch.full_like(c, float("nan"))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        t(a=a, b=b, c=c2)
    s.synchronize()
    check("torch on a non-default stream", bool(torch.allclose(c, c2, rtol=1e-5, atol=1e-5)))
    msg = raises(ValueError, lambda: t(a.cpu(), b, c))
    check("torch CPU tensor refused", msg is not None and "not in CUDA device memory" in msg, msg or "")
    msg = raises(TypeError, lambda: t(a.half(), b, c))
    check("torch float16 refused", msg is not None and "dtype" in msg, msg or "")


def run_sizes_as_arguments(db, budget):
    """Sizes given with set() are arguments of the code: a non-square product."""
    import torch

    k = loopy.Kernel(MATMUL).set(n=300, m=200, l=100)
    t = k.tune(db=db, budget=budget)
    a = torch.rand(300, 100, device="cuda")
    b = torch.rand(100, 200, device="cuda")
    c = torch.empty(300, 200, device="cuda")
    t(a, b, c)
    torch.cuda.synchronize()
    err = float((c - a @ b).abs().max() / (a @ b).abs().max())
    check("torch 300x100 @ 100x200 with sizes set at run time", err < 1e-5, f"largest error {err:.2e}")


def run_sized_and_named(db, budget, n):
    """A SizedKernel tunes once per set of sizes read off the arrays; a
    named variant loads untimed and runs too."""
    import torch

    mm = loopy.Kernel(MATMUL).sized(db=db, budget=budget)
    ok = True
    for rows, inner, cols in ((256, 128, 64), (512, 512, 512), (256, 128, 64)):
        a = torch.rand(rows, inner, device="cuda")
        b = torch.rand(inner, cols, device="cuda")
        c = torch.empty(rows, cols, device="cuda")
        mm(a, b, c)
        torch.cuda.synchronize()
        ok = ok and float((c - a @ b).abs().max() / (a @ b).abs().max()) < 1e-5
    check("sized kernel tuned once per set of sizes", ok and len(mm.tuned) == 2, f"{mm.tuned}")

    k = loopy.Kernel(MATMUL).fix(n=n, m=n, l=n)
    v = k.variants()[3]
    t = k.load(v)
    a = torch.rand(n, n, device="cuda")
    b = torch.rand(n, n, device="cuda")
    c = torch.empty(n, n, device="cuda")
    t(a, b, c)
    torch.cuda.synchronize()
    err = float((c - a @ b).abs().max() / (a @ b).abs().max())
    check("named variant loaded and run", t.schedule == v.schedule and err < 1e-5,
          f"{v.schedule}, largest error {err:.2e}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=1024)
    p.add_argument("--budget", type=int, default=16)
    p.add_argument("--db", default=None, help="tuning database (default: a new one)")
    args = p.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db or str(Path(tmp.name) / "tuning.db")
    n = args.size

    k = loopy.Kernel(MATMUL).fix(n=n, m=n, l=n)
    start = time.perf_counter()
    try:
        t = k.tune(db=db, budget=args.budget)
    except loopy.Error as e:
        if "needs a GPU" in e.message:
            print(f"python gpu tests skipped: {e.message}")
            return 77
        raise
    check(f"tune matmul {n}", "__global__" in t.cuda_source,
          f"{t.schedule}, {t.seconds * 1e3:.3f} ms, {t.gflops:.0f} GFLOP/s, "
          f"{time.perf_counter() - start:.1f} s{' (from the database)' if t.from_database else ''}")

    for name, fn in (("cupy", run_cupy), ("torch", run_torch)):
        try:
            __import__(name)
        except ImportError as e:
            check(f"{name} importable", False, str(e))
            continue
        fn(t, n)

    # Read back from the database: checked, looked up and loaded in <= 0.1 s,
    # every time.
    times = []
    for _ in range(3):
        start = time.perf_counter()
        again = loopy.Kernel(MATMUL).fix(n=n, m=n, l=n).tune(db=db, budget=args.budget)
        times.append(time.perf_counter() - start)
    check("tuned kernel read back from the database",
          again.from_database and again.schedule == t.schedule and max(times) <= 0.1,
          f"{', '.join(f'{x * 1e3:.1f}' for x in times)} ms")

    try:
        run_sizes_as_arguments(db, max(4, args.budget // 2))
        run_sized_and_named(db, max(4, args.budget // 4), n)
    except ImportError:
        pass
    print(f"python gpu tests: {len(failed)} failed" + (f" ({', '.join(failed)})" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
