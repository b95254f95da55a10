"""loopyc from Python: tuned CUDA for loop kernels.

    import loopy
    k = loopy.Kernel("examples/matmul.loop").fix(n=1024, m=1024, l=1024)
    print(k.variants()[0].schedule)
    print(k.cuda())                     # the first-ranked variant's CUDA
    t = k.tune(budget=24)               # on the GPU, or from the database
    t(a, b, c)                          # CuPy or PyTorch arrays on the GPU

Every diagnostic of the compiler is raised as loopy.Error, which carries
the first error's file, line, column and message.
"""

import json
import os
from pathlib import Path

from . import _loopy

__all__ = [
    "Error",
    "Kernel",
    "Variant",
    "Argument",
    "Compiled",
    "TunedKernel",
    "SizedKernel",
    "kernel_names",
]

_here = Path(__file__).resolve().parent
# The tuner times variants in loopy-worker, a process of its own; the
# wheel carries it beside the module.
if (_here / "loopy-worker").exists():
    os.environ.setdefault("LOOPY_WORKER", str(_here / "loopy-worker"))


class Error(Exception):
    """A diagnostic of loopyc: str(e) is the whole text as loopyc prints it
    (file:line:col: error: message, the source line and a caret); file,
    line, column and message are the first error's (file None and line and
    column 0 for an error that concerns no source text)."""

    def __init__(self, text, file="", line=0, column=0, message=""):
        super().__init__(text)
        self.text = text
        self.file = file or None
        self.line = line
        self.column = column
        self.message = message or text

    def __str__(self):
        return self.text


_loopy._set_error_type(Error)


class Variant:
    """One variant as the planner ranks it (rank 0 first)."""

    def __init__(self, rank, info):
        self.rank = rank
        self.schedule = info.schedule
        self.threads = info.threads
        self.shared_bytes = info.shared_bytes
        self.register_outputs = info.register_outputs
        self.static_cost = info.static_cost

    @property
    def name(self):
        """The variant's name: its schedule string."""
        return self.schedule

    def to_dict(self):
        return {
            "rank": self.rank,
            "schedule": self.schedule,
            "threads": self.threads,
            "shared_bytes": self.shared_bytes,
            "register_outputs": self.register_outputs,
            "static_cost_s": self.static_cost,
        }

    def __repr__(self):
        return f"Variant({self.rank}, {self.schedule!r})"


class Argument:
    """One kernel argument; an array's shape and strides are at the sizes
    known (-1 where a size has no value yet)."""

    def __init__(self, info):
        self.name = info.name
        self.kind = info.kind  # "index", "scalar" or "array"
        self.dtype = info.dtype
        self.mode = info.mode
        self.shape = tuple(info.shape)
        self.strides = tuple(info.strides)

    def to_dict(self):
        d = {"name": self.name, "kind": self.kind, "dtype": self.dtype, "mode": self.mode}
        if self.kind == "array":
            d["shape"] = list(self.shape)
            d["strides"] = list(self.strides)
        return d

    def __repr__(self):
        shape = f", shape={self.shape}" if self.kind == "array" else ""
        return f"Argument({self.name!r}, {self.kind}, {self.dtype}{shape})"


def _source(source, file_name=None):
    """A checked _loopy.Source from .loop text or a path to a file."""
    if isinstance(source, os.PathLike):
        return _loopy.Source.from_file(os.fspath(source))
    if not isinstance(source, str):
        raise TypeError("a kernel's source is .loop text or a path, not " + type(source).__name__)
    if "\n" not in source and "{" not in source:
        return _loopy.Source.from_file(source)
    return _loopy.Source.from_string(source, file_name or "<string>")


def kernel_names(source):
    """The names of the kernels in .loop text or a file, in order."""
    return list(_source(source).kernel_names)


class Kernel:
    """A kernel of a .loop source (text or a path), with sizes given so far.

    Kernel(source, name=None): name picks one kernel of a file of several.
    fix() and set() return new kernels; the one called is not changed.
    """

    def __init__(self, source, name=None, *, file_name=None):
        self._k = _source(source, file_name).kernel(name or "")

    @classmethod
    def _wrap(cls, k):
        self = cls.__new__(cls)
        self._k = k
        return self

    @property
    def name(self):
        return self._k.name

    @property
    def parameters(self):
        """The index parameters, in declaration order."""
        return list(self._k.parameters)

    @property
    def sizes(self):
        """Every size given so far (fix and set), by parameter."""
        d = dict(self._k.set_values)
        d.update(self._k.fixed_values)
        return d

    def fix(self, **sizes):
        """A kernel with the sizes as constants of its code (loopyc's -D)."""
        k = self._k.copy()
        for p, v in sizes.items():
            k.fix(p, _index(p, v))
        return Kernel._wrap(k)

    def set(self, **sizes):
        """A kernel with the sizes as run-time arguments of its code, for
        tuning and running (loopyc's --param)."""
        k = self._k.copy()
        for p, v in sizes.items():
            k.set(p, _index(p, v))
        return Kernel._wrap(k)

    def planner(self, *, min_threads=None, min_blocks=None, max_shared=None):
        """A kernel whose variants obey the planner's constraints (loopyc's
        --min-threads, --min-blocks, --max-shared)."""
        k = self._k.copy()
        k.planner(
            -1 if min_threads is None else min_threads,
            -1 if min_blocks is None else min_blocks,
            -1 if max_shared is None else max_shared,
        )
        return Kernel._wrap(k)

    def arguments(self):
        return [Argument(a) for a in self._k.arguments()]

    def variants(self):
        """Every variant the planner lists, best ranked first."""
        return [Variant(i, v) for i, v in enumerate(self._k.variants())]

    def cuda(self, variant=None):
        """The CUDA source of a variant: a schedule string, a rank, a
        Variant, or the first-ranked one."""
        return self._k.cuda(_schedule(variant))

    def to_json(self, **dumps):
        """The kernel, its sizes, arguments and variants as JSON text."""
        doc = {
            "kernel": self.name,
            "parameters": self.parameters,
            "sizes": self.sizes,
            "arguments": [a.to_dict() for a in self.arguments()],
            "variants": [v.to_dict() for v in self.variants()],
        }
        return json.dumps(doc, **dumps)

    def compile(self, variant=None, arch=None, *, ptx=False):
        """A variant (as for cuda()) compiled by NVRTC for arch ("sm_90";
        None: GPU 0's), as CUBIN or PTX; needs no GPU where arch is named."""
        schedule, arch, cuda, binary = self._k.compile(_schedule(variant), arch or "", ptx)
        return Compiled(schedule, arch, cuda, binary)

    def load(self, variant=None):
        """A variant (as for cuda(), untimed) loaded on GPU 0, called like
        a tuned kernel. Every size needs a value."""
        return TunedKernel(self.name, self._k.load(_schedule(variant)))

    def sizes_from_shapes(self, **shapes):
        """The sizes that array extents give (n of f32[n, m]), from shapes
        by array name."""
        return dict(self._k.sizes_from_shapes({k: list(v) for k, v in shapes.items()}))

    def sized(self, db=None, budget=0, **tune):
        """A SizedKernel: tuned per set of sizes on first use."""
        return SizedKernel(self, db=db, budget=budget, **tune)

    def tune(self, db=None, budget=0, *, exhaustive=False, retune=False, seed=1):
        """Tunes on the GPU (at most budget variants timed; 0: the tuner's
        default), or reads the result from the tuning database db (None:
        the default one), and loads the winner. Every size needs a value."""
        t = self._k.tune(os.fspath(db) if db is not None else "", budget, exhaustive, retune, seed)
        return TunedKernel(self.name, t)

    def __repr__(self):
        sizes = ", ".join(f"{p}={v}" for p, v in self.sizes.items())
        return f"Kernel({self.name!r}{', ' + sizes if sizes else ''})"


def _schedule(variant):
    if isinstance(variant, Variant):
        return variant.schedule
    if isinstance(variant, int) and not isinstance(variant, bool):
        return str(variant)
    return variant or ""


class Compiled:
    """A variant compiled without a GPU: schedule, arch, cuda (the source)
    and binary (CUBIN or PTX bytes)."""

    def __init__(self, schedule, arch, cuda, binary):
        self.schedule, self.arch, self.cuda, self.binary = schedule, arch, cuda, binary

    def __repr__(self):
        return f"Compiled({self.schedule!r}, {self.arch!r}, {len(self.binary)} bytes)"


def _index(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = value.__index__()
        except AttributeError:
            raise TypeError(f"size {name} must be an integer, not {type(value).__name__}") from None
    return value


_CAI_TYPES = {"<f2": "f16", "<f4": "f32", "<f8": "f64", "<i4": "i32",
              "<i8": "i64"}


def _launch_view(a):
    """a itself where it speaks DLPack; else, for an object with only
    __cuda_array_interface__ (Numba's device arrays, say), the tuple the
    module reads: pointer, shape, strides in elements and dtype."""
    if hasattr(a, "__dlpack__") or not hasattr(a, "__cuda_array_interface__"):
        return a
    cai = a.__cuda_array_interface__
    shape = tuple(cai["shape"])
    typestr = cai["typestr"]
    size = int(typestr[2:])
    if cai.get("strides") is None:
        strides, step = [], 1
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
    else:
        strides = [s // size for s in cai["strides"]]
    # The rest are named as the module names DLPack's, by kind and bits:
    # |i1 is i8, |u1 u8, <i2 i16, <u2 u16 (the kernel's types), and the
    # others (b8, u32, ...) are refused.
    dtype = _CAI_TYPES.get(typestr) or typestr[1] + str(8 * size)
    return ("cuda_array_interface", cai["data"][0], list(shape), strides, dtype)


def _current_stream(arrays):
    """The current CUDA stream of the library the first array comes from
    (PyTorch or CuPy), as an integer; 0 (the default stream) otherwise.
    An array in host memory names no stream: the launch refuses it with
    the argument's name."""
    for a in arrays:
        mod = type(a).__module__.split(".")[0]
        if mod == "torch":
            if a.device.type != "cuda":
                continue
            import torch

            return torch.cuda.current_stream(a.device).cuda_stream
        if mod == "cupy":
            import cupy

            return cupy.cuda.get_current_stream().ptr
    return 0


class TunedKernel:
    """A tuned kernel loaded on GPU 0, called on device arrays:
    t(a, b, c) in the order of the kernel's array and scalar arguments, or
    by name, t(a=..., b=..., c=...). Arrays are anything with __dlpack__
    (CuPy, PyTorch) on CUDA device 0, of the kernel's dtype, shape and
    layout; the launch goes on the library's current stream unless
    stream= (an integer CUstream) is given."""

    def __init__(self, name, t):
        self.name = name
        self._t = t
        self._args = [Argument(a) for a in t.arguments]
        self._positional = [a.name for a in self._args if a.kind != "index"]

    schedule = property(lambda self: self._t.schedule)
    cuda_source = property(lambda self: self._t.cuda_source)
    seconds = property(lambda self: self._t.seconds, doc="median time of one run, in seconds")
    gflops = property(lambda self: self._t.gflops)
    from_database = property(lambda self: self._t.from_database)
    tuning_seconds = property(lambda self: self._t.tuning_seconds)
    warnings = property(lambda self: self._t.warnings)
    sizes = property(lambda self: dict(self._t.parameter_values))
    arguments = property(lambda self: list(self._args))

    def __call__(self, *args, stream=None, **kwargs):
        if len(args) > len(self._positional):
            raise TypeError(f"kernel {self.name!r} takes {len(self._positional)} arguments "
                            f"({', '.join(self._positional)}), not {len(args)}")
        given = dict(zip(self._positional, args))
        for k, v in kwargs.items():
            if k in given:
                raise TypeError(f"argument {k!r} of kernel {self.name!r} given twice")
            given[k] = v
        kinds = {a.name: a.kind for a in self._args}
        arrays, scalars = {}, {}
        for k, v in given.items():
            if kinds.get(k) == "scalar":
                scalars[k] = float(v)
            elif kinds.get(k) == "index":
                raise TypeError(f"{k!r} is a size of kernel {self.name!r}, tuned at "
                                f"{self._t.parameter_values[k]}; tune it again for another")
            else:
                arrays[k] = _launch_view(v)
        if stream is None:
            # The library's stream, found from the arrays as given.
            stream = _current_stream(given.values())
        self._t.launch(self.name, arrays, scalars, int(stream))

    def __repr__(self):
        return f"TunedKernel({self.name!r}, {self.schedule!r})"


class SizedKernel:
    """A kernel tuned per set of sizes, like Triton's autotuning key: a call
    reads the sizes off the arrays' shapes, tunes the kernel with them
    fixed on the first call at those sizes (or reads the tuning database),
    and reuses that tuned kernel afterwards.

        mm = loopy.Kernel("examples/matmul.loop").sized(budget=16)
        mm(a, b, c)        # tunes at a's and b's sizes once
    """

    def __init__(self, kernel, db=None, budget=0, **tune):
        self.kernel = kernel
        self._tune = dict(db=db, budget=budget, **tune)
        self._tuned = {}
        args = kernel.arguments()
        self._positional = [a.name for a in args if a.kind != "index"]
        self._arrays = {a.name for a in args if a.kind == "array"}

    def at(self, **sizes):
        """The kernel tuned at sizes (every size the kernel does not fix)."""
        key = tuple(sorted(sizes.items()))
        t = self._tuned.get(key)
        if t is None:
            t = self._tuned[key] = self.kernel.fix(**sizes).tune(**self._tune)
        return t

    @property
    def tuned(self):
        """The sizes tuned so far, each a dict."""
        return [dict(k) for k in self._tuned]

    def __call__(self, *args, stream=None, **kwargs):
        given = dict(zip(self._positional, args))
        given.update(kwargs)
        shapes = {k: tuple(v.shape) for k, v in given.items() if k in self._arrays}
        self.at(**self.kernel.sizes_from_shapes(**shapes))(*args, stream=stream, **kwargs)
