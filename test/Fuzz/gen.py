#!/usr/bin/env python3
#===- gen.py - Grammar-aware generator of .loop kernels --------------------===#
#
# Generates random .loop kernels that cover the whole language of
# docs/language.md: index parameters with `assume`, domains of one to four
# indices (rectangles, triangles, negative ranges, constant sizes, `!=` holes,
# `mod` and `exists` strides, unions, empty domains, and the 0-d domain `[]`),
# several statements, input, output and inout arrays (0-d ones too) with
# row-major, column-major or explicit strides, scalar arguments, subscripts
# with coefficients, offsets, `%` and `/`, reductions (sum, prod, max, min,
# over one or several indices, nested), the four element types with casts,
# integer division and modulo, comparisons and select, math functions, index
# values used as data, and `-D` sizes from 0 to 2^40.
#
# Kernels are built from a model that knows the range of every domain index,
# so that every subscript is in bounds by construction, writes are injective,
# out arrays are never read and each statement reads only its own inout
# element: most kernels are valid. A share (--invalid) is damaged on purpose,
# by a semantic edit (an out-of-bounds offset, a type mismatch, a write to an
# input, ...) or by token-level edits (test/Fuzz/mutate.py).
#
# Kernel number K of seed S depends only on (S, K): generate(S, K) gives it
# back, whatever else was generated before.
#
# Usage: gen.py [--seed S] [--start K] [--count N] [--out DIR]
#   prints the kernels (with their -D options in a comment), or writes them
#   to DIR/kNNNNNN.loop. test/Fuzz/run.py runs them through loopyc.
#
#===------------------------------------------------------------------------===#
import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402  (token-level edits)

PARAMS = ["n", "m", "p", "q"]
INDICES = ["i", "j", "k", "t"]
TYPES = ["f32", "f64", "i32", "i64", "i8", "u8", "i16", "u16"]
FLOAT = ("f32", "f64")
UNSIGNED = ("u8", "u16")
# The largest literal each integer type holds.
INT_MAX = {"i8": 127, "u8": 255, "i16": 32767, "u16": 65535,
           "i32": 2147483647}
BIG_SIZES = [2**31 - 1, 2**31, 2**31 + 16, 2**32, 2**33, 2**40]


# --- Affine forms: {name: coefficient, "": constant} -----------------------

def aff(const=0, **terms):
    a = {"": const}
    a.update(terms)
    return a


def add(x, y, scale=1):
    r = dict(x)
    for key, v in y.items():
        r[key] = r.get(key, 0) + scale * v
    return r


def mul(x, c):
    return {key: c * v for key, v in x.items()}


def fmt(a, star=True):
    """Prints an affine form: '2 * n - 1', '-n + 3', '0'."""
    out = ""
    for key in sorted(k for k in a if k) + [""]:
        c = a.get(key, 0)
        if c == 0:
            continue
        if key == "":
            term = str(abs(c))
        elif abs(c) == 1:
            term = key
        else:
            term = f"{abs(c)} * {key}" if star else f"{abs(c)}{key}"
        if not out:
            out = ("-" if c < 0 else "") + term
        else:
            out += (" - " if c < 0 else " + ") + term
    return out or "0"


def evaluate(a, env):
    return sum(v * (env[k] if k else 1) for k, v in a.items())


# --- The kernel model -------------------------------------------------------

class Array:
    def __init__(self, name, mode, ty, shape):
        self.name, self.mode, self.ty = name, mode, ty
        self.shape = shape          # list of extent strings
        self.layout = ""
        self.read_subs = None       # subscripts of the first read (for reuse)
        self.read_scope = set()


class Gen:
    def __init__(self, rng, name, fixed_sizes=True):
        self.rng = rng
        self.name = name
        self.arrays = []
        self.scalars = []           # (name, type)
        self.statements = []
        self.counter = {"a": 0, "y": 0, "u": 0, "s": 0}
        self.build(fixed_sizes)

    # Names ------------------------------------------------------------------
    def fresh(self, prefix):
        n = self.counter[prefix]
        self.counter[prefix] += 1
        return f"{prefix}{n}"

    # Parameters, assumptions and the domain ---------------------------------
    def build(self, fixed_sizes):
        r = self.rng
        self.params = PARAMS[:r.choice((0, 1, 1, 1, 2, 2, 2, 3, 4))]
        # Each assumption is (text, predicate on a dict of parameter values).
        self.assumes = []
        for p in self.params:
            roll = r.random()
            if roll < 0.45:
                lo = r.choice((0, 1, 1, 2, 4, 16))
                self.assumes.append((f"{p} >= {lo}", lambda e, p=p, lo=lo: e[p] >= lo))
            elif roll < 0.55:
                self.assumes.append((f"{p} >= 1 and {p} mod 4 = 0",
                                     lambda e, p=p: e[p] >= 1 and e[p] % 4 == 0))
            elif roll < 0.62:
                hi = r.choice((64, 4096, 1 << 20))
                self.assumes.append((f"1 <= {p} <= {hi}",
                                     lambda e, p=p, hi=hi: 1 <= e[p] <= hi))
        if len(self.params) >= 2 and r.random() < 0.15:
            a, b = self.params[0], self.params[1]
            self.assumes.append((f"{b} <= {a}", lambda e, a=a, b=b: e[b] <= e[a]))

        ndim = r.choice((0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4)) if r.random() > 0.03 else 0
        self.indices = INDICES[:ndim]
        self.box = {}               # index -> (L, U) affine, L <= i < U
        cons = []
        for pos, idx in enumerate(self.indices):
            earlier = self.indices[:pos]
            if earlier and r.random() < 0.25:
                # A triangle: the box of an earlier index, cut by an order.
                o = r.choice(earlier)
                self.box[idx] = self.box[o]
                L, U = self.box[idx]
                op = r.choice(("<=", "<"))
                if r.random() < 0.5:
                    cons.append(f"{fmt(L)} <= {idx} {op} {o}")
                else:
                    cons.append(f"{o} {op} {idx} < {fmt(U)}")
                continue
            L, U = self.interval()
            self.box[idx] = (L, U)
            cons.append(f"{fmt(L)} <= {idx} < {fmt(U)}")
        extras = []
        for idx in self.indices:
            roll = r.random()
            L, U = self.box[idx]
            if roll < 0.08:
                extras.append(f"{idx} != {evaluate(L, {p: 0 for p in self.params}) + r.randrange(3)}")
            elif roll < 0.14:
                q = r.choice((2, 3, 4))
                extras.append(f"{idx} mod {q} = {r.randrange(q)}")
            elif roll < 0.19:
                q = r.choice((2, 4, 8))
                extras.append(f"exists (e : {idx} = {q} e + {r.randrange(q)})")
            elif roll < 0.22 and self.params:
                extras.append(f"2 {idx} <= {r.choice(self.params)}")
        if len(self.indices) >= 2 and r.random() < 0.12:
            a, b = r.sample(self.indices, 2)
            extras.append(r.choice((f"{a} != {b}", f"{a} + {b} != 3")))
        if len(self.indices) >= 2 and self.params and r.random() < 0.08:
            a, b = r.sample(self.indices, 2)
            extras.append(f"{a} + {b} < {r.choice(self.params)}")
        self.empty = r.random() < 0.05
        if self.empty and self.indices:
            idx = r.choice(self.indices)
            extras.append(r.choice((f"{idx} < {fmt(self.box[idx][0])}",
                                    f"{idx} > {fmt(self.box[idx][1])}")))
        elif self.empty:
            extras.append("1 = 0")
        conj = " and ".join(cons + extras)
        if self.indices and r.random() < 0.07:
            # A union of two parts of the box.
            idx = r.choice(self.indices)
            L, U = self.box[idx]
            conj = (f"{conj} and {idx} < {fmt(add(L, aff(2)))} or "
                    f"{conj} and {idx} >= {fmt(add(U, aff(-2)))}")
        tup = ", ".join(self.indices)
        name = "S" if r.random() < 0.03 else ""      # a tuple name, ignored
        self.domain = f"{{ {name}[{tup}] : {conj} }}" if conj else \
            f"{{ {name}[{tup}] }}"
        if r.random() < 0.02:
            # An isl comment runs to the end of the line.
            self.domain = self.domain[:-1] + "# the points\n  }"

        self.defines = {}
        self.bad_defines = False
        if fixed_sizes:
            self.pick_defines()

    def interval(self):
        """A range [L, U) for a domain index, affine in the parameters."""
        r = self.rng
        if not self.params or r.random() < 0.15:
            lo = r.choice((0, 0, 0, 0, 0, 1, 1, -3))
            return aff(lo), aff(lo + r.choice((1, 2, 3, 4, 7, 16, 33)))
        p = r.choice(self.params)
        roll = r.random()
        if roll < 0.6:
            return aff(0), aff(0, **{p: 1})
        if roll < 0.7:
            return aff(1), aff(1, **{p: 1})
        if roll < 0.8:
            return aff(0), aff(0, **{p: 2})
        if roll < 0.85:
            return aff(-r.choice((1, 4))), aff(0, **{p: 1})
        if roll < 0.88:
            return aff(0, **{p: -1}), aff(0, **{p: 1})
        q = r.choice(self.params)
        return aff(0), add(aff(0, **{p: 1}), aff(r.choice((0, 3)), **{q: 1}))

    def pick_defines(self):
        r = self.rng
        if not self.params or r.random() > 0.3:
            return
        for _ in range(20):
            env = {}
            for p in self.params:
                roll = r.random()
                if roll < 0.1:
                    env[p] = r.choice(BIG_SIZES)
                elif roll < 0.2:
                    env[p] = r.choice((0, 1, 2, 3))
                else:
                    env[p] = r.choice((4, 7, 16, 32, 100, 128, 1000, 1024, 4096, 65536))
            if r.random() < 0.05 or all(pred(env) for _, pred in self.assumes):
                keep = [p for p in self.params if r.random() < 0.6] or [self.params[0]]
                self.defines = {p: env[p] for p in keep}
                # Assumptions that the values given break: an error.
                def fixed(text):
                    return all(q in self.defines for q in self.params
                               if re.search(rf"\b{q}\b", text))
                self.bad_defines = not all(pred(env) for text, pred in
                                           self.assumes if fixed(text))
                return

    # Subscripts ---------------------------------------------------------------
    def term(self, idx, coef):
        """(text, min, max) of coef * idx over its box."""
        L, U = self.box[idx]
        hi = add(U, aff(-1))
        lo_v, hi_v = (mul(L, coef), mul(hi, coef)) if coef > 0 else \
            (mul(hi, coef), mul(L, coef))
        text = idx if coef == 1 else ("-" + idx if coef == -1 else f"{coef} * {idx}")
        return text, lo_v, hi_v

    def subscript(self, scope, force=None, lhs=False):
        """One subscript over the indices of scope: (text, extent).

        The extent covers every value the subscript takes in the box of its
        indices (not only in the domain), so the access is in bounds."""
        r = self.rng
        idxs = [force] if force else []
        if not idxs and scope and r.random() < 0.9:
            idxs = [r.choice(scope)]
            if len(scope) >= 2 and r.random() < 0.15:
                idxs.append(r.choice([s for s in scope if s != idxs[0]]))
        if not idxs:
            c = r.choice((0, 0, 1, 2))
            return str(c), str(c + 1 + r.choice((0, 0, 3)))
        kind = r.random() if not lhs else 1.0
        parts, lo, hi = [], aff(0), aff(0)
        for idx in idxs:
            coef = r.choice((1, 1, 1, 1, 2, -1, 3)) if not lhs else \
                r.choice((1, 1, 1, 2, -1))
            t, a, b = self.term(idx, coef)
            parts.append(t)
            lo, hi = add(lo, a), add(hi, b)
        # Shift so that the smallest value is 0 (plus some slack).
        off = add(mul(lo, -1), aff(r.choice((0, 0, 0, 1, 2))))
        text = " + ".join(parts).replace("+ -", "- ")
        o = fmt(off)
        if o != "0":
            text = f"{text} + {o}" if not o.startswith("-") else f"{text} - {o[1:]}"
        ext = add(add(hi, off), aff(1 + r.choice((0, 0, 0, 1, 5))))
        if kind < 0.07:
            q = r.choice((2, 3, 4))
            return f"({text}) % {q}", str(q)
        if kind < 0.13:
            # The inner value is >= 0, so its floor quotient is between 0 and
            # the inner value.
            q = r.choice((2, 4))
            return f"({text}) / {q}", fmt(ext)
        return text, fmt(ext)

    # Arrays and scalars --------------------------------------------------------
    def layout(self, arr):
        r = self.rng
        rank = len(arr.shape)
        roll = r.random()
        if rank >= 2 and roll < 0.15:
            arr.layout = " layout(col_major)"
        elif rank >= 2 and roll < 0.2:
            arr.layout = " layout(row_major)"
        elif rank == 2 and roll < 0.3:
            if r.random() < 0.5:
                arr.layout = f" strides(({arr.shape[1]}) + {r.choice((0, 1, 3))}, 1)"
            else:
                arr.layout = f" strides(1, ({arr.shape[0]}) + {r.choice((0, 2))})"
        elif rank == 1 and roll < 0.08:
            arr.layout = f" strides({r.choice((1, 2, 3))})"

    def read(self, ty, scope, ctx):
        """A read of an input array of type ty with indices from scope."""
        r = self.rng
        reuse = [a for a in self.arrays if a.mode == "in" and a.ty == ty and
                 a.read_scope <= set(scope)]
        # 0-d inputs only now and then: each one doubles the planner's work.
        if reuse and r.random() < 0.5:
            a = r.choice(reuse)
            if a.shape or r.random() < 0.3:
                return f"{a.name}[{a.read_subs}]"
        rank = r.choice((1, 1, 1, 1, 2, 2, 2, 3)) if r.random() > 0.08 else 0
        # Prefer the indices that were bound last (reduction indices).
        subs, shape, used = [], [], set()
        for d in range(rank):
            force = None
            if ctx.bound and d == 0 and r.random() < 0.6:
                force = ctx.bound[-1]
            text, ext = self.subscript(scope, force)
            subs.append(text)
            shape.append(ext)
            used |= {s for s in scope if re.search(rf"\b{s}\b", text)}
        a = Array(self.fresh("a"), "in", ty, shape)
        a.read_subs = ", ".join(subs)
        a.read_scope = used
        self.layout(a)
        self.arrays.append(a)
        return f"{a.name}[{a.read_subs}]"

    def scalar(self, ty):
        for name, t in self.scalars:
            if t == ty and self.rng.random() < 0.6:
                return name
        name = self.fresh("s")
        self.scalars.append((name, ty))
        return name

    # Expressions ---------------------------------------------------------------
    def literal(self, ty):
        r = self.rng
        if ty in FLOAT and r.random() < 0.4:
            return r.choice(("0.5", "1.5", ".25", "2.", "1e-3", "2.5E+4", "0.0", "3.14159"))
        v = r.choice((0, 1, 1, 2, 2, 3, 7, 16, 255, 65536, 2147483647, 2147483648))
        if v > INT_MAX.get(ty, v):
            v = 7
        return str(v)

    def leaf(self, ty, ctx):
        r = self.rng
        roll = r.random()
        if roll < 0.55:
            return self.read(ty, ctx.scope, ctx)
        if roll < 0.65:
            return self.scalar(ty)
        if roll < 0.8:
            return self.literal(ty)
        # An index or a parameter as a value (i64).
        names = ctx.scope + self.params
        if not names:
            return self.literal(ty)
        v = r.choice(names)
        return v if ty == "i64" else f"{ty}({v})"

    def typed(self, ty, e):
        """e, cast to ty when it is made of literals only: such an
        expression takes its type from where it is used, which may not be
        ty (in a cast, or on both sides of a comparison)."""
        names = {n for n, _ in self.scalars} | set(self.params) | \
            set(self.indices)
        if "[" in e or any(re.search(rf"\b{n}\b", e) for n in names) or \
                re.search(r"\b([fi](32|64)|[iu](8|16))\(", e):
            return e
        return f"{ty}({e})"

    def cond(self, ctx, depth):
        r = self.rng
        ty = r.choice(TYPES)
        op = r.choice(("<", "<=", ">", ">=", "==", "!="))
        c = f"{self.typed(ty, self.expr(ty, ctx, depth))} {op} " \
            f"{self.expr(ty, ctx, depth)}"
        roll = r.random()
        if roll < 0.15 and depth > 0:
            c = f"{c} {r.choice(('&&', '||'))} {self.cond(ctx, depth - 1)}"
        elif roll < 0.2:
            c = f"!({c})"
        return c

    def expr(self, ty, ctx, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ty, ctx)
        d = depth - 1
        roll = r.random()
        if roll < 0.3:
            ops = ["+", "-", "*", "/"] + (["%"] if ty not in FLOAT else [])
            op = r.choice(ops)
            e = f"{self.expr(ty, ctx, d)} {op} {self.expr(ty, ctx, d)}"
            return e if r.random() < 0.5 else f"({e})"
        if roll < 0.45 and ctx.free:
            return self.reduction(ty, ctx, d)
        if roll < 0.52:
            # An unsigned type negates values, not literals (-1 is no u8):
            # a literal is cast, and "-(2 + x)" keeps its 2 from the sign.
            x = self.expr(ty, ctx, d)
            if ty in UNSIGNED:
                x = f"({self.typed(ty, x)})"
            return f"-{x}" if r.random() < 0.8 else f"+({x})"
        if roll < 0.62:
            other = r.choice(TYPES)
            return f"{ty}({self.typed(other, self.expr(other, ctx, d))})"
        if roll < 0.7:
            return f"{ty}({self.cond(ctx, d)})"
        if roll < 0.78:
            return f"select({self.cond(ctx, d)}, {self.expr(ty, ctx, d)}, {self.expr(ty, ctx, d)})"
        fns = ["abs", "min", "max"]
        if ty in FLOAT:
            fns += ["sqrt", "exp", "log", "sin", "cos", "tanh", "pow", "fma"]
        fn = r.choice(fns)
        arity = {"min": 2, "max": 2, "pow": 2, "fma": 3}.get(fn, 1)
        args = [self.expr(ty, ctx, d) for _ in range(arity)]
        if fn in ("min", "max") and args[0] in ctx.free:
            args[0] = f"({args[0]})"
        return f"{fn}({', '.join(args)})"

    def reduction(self, ty, ctx, depth):
        r = self.rng
        free = sorted(ctx.free)
        n = 1 if len(free) == 1 or r.random() < 0.7 else r.randint(2, len(free))
        pick = r.sample(free, n)
        ctx.free -= set(pick)
        ctx.scope = ctx.scope + pick
        ctx.bound = ctx.bound + pick
        ctx.nest += 1
        # Deep nests only rarely: they are a known gap of the planner.
        body_depth = depth if ctx.nest == 1 or r.random() < 0.3 else 0
        body = self.typed(ty, self.expr(ty, ctx, max(body_depth, 1)))
        ctx.nest -= 1
        ctx.scope = ctx.scope[:-n]
        ctx.bound = ctx.bound[:-n]
        op = r.choice(("sum", "sum", "sum", "prod", "max", "min"))
        ix = pick[0] if n == 1 else "(" + ", ".join(pick) + ")"
        return f"{op}({ix}, {body})"

    # Statements ------------------------------------------------------------------
    def statement(self):
        r = self.rng
        idx = self.indices
        outs = [i for i in idx if r.random() < 0.6]
        if idx and not outs and r.random() < 0.5:
            outs = [r.choice(idx)]
        r.shuffle(outs)
        ty = r.choice(TYPES)
        mode = "inout" if r.random() < 0.15 else "out"
        subs, shape = [], []
        for o in outs:
            text, ext = self.subscript(outs, force=o, lhs=True)
            subs.append(text)
            shape.append(ext)
        if r.random() < 0.08:
            # A constant dimension.
            c = r.randrange(3)
            pos = r.randrange(len(subs) + 1)
            subs.insert(pos, str(c))
            shape.insert(pos, str(c + 1 + r.randrange(2)))
        arr = Array(self.fresh("u" if mode == "inout" else "y"), mode, ty, shape)
        self.layout(arr)
        self.arrays.append(arr)
        lhs = f"{arr.name}[{', '.join(subs)}]"

        class Ctx:
            pass
        ctx = Ctx()
        ctx.scope = list(outs)
        ctx.free = set(idx) - set(outs)
        ctx.bound = []
        ctx.nest = 0
        depth = r.choice((1, 2, 2, 3, 3, 4))
        rhs = self.expr(ty, ctx, depth)
        if r.random() < 0.003:
            # A long left-associative chain: no recursion may grow with it.
            rhs = " + ".join([self.leaf(ty, ctx)] *
                             r.choice((100, 1000, 5000, 20000)))
        if ctx.free and r.random() < 0.6:
            # Reduce over the rest, so that most statements use every index.
            red = self.reduction(ty, ctx, depth)
            rhs = f"{rhs} + {red}" if r.random() < 0.5 else red
        if mode == "inout":
            rhs = f"{lhs} {r.choice(('+', '*', '-'))} ({rhs})" if r.random() < 0.8 \
                else f"{r.choice(('max', 'min'))}({lhs}, {rhs})"
        self.statements.append(f"{lhs} = {rhs};")
        # Two statements writing disjoint parts of one array (`pad`): the
        # first dimension of the main write starts at 1 or more.
        if len(shape) == 1 and mode == "out" and r.random() < 0.1:
            base = subs[0]
            arr.shape = [f"{shape[0]} + 1"]
            self.statements[-1] = self.statements[-1].replace(
                f"{arr.name}[{base}]", f"{arr.name}[{base} + 1]", 1)
            self.statements.append(f"{arr.name}[0] = {self.literal(ty)};")

    # Text --------------------------------------------------------------------------
    def text(self):
        r = self.rng
        groups = []
        if self.params:
            groups.append(", ".join(self.params) + ": index")
        items = [f"{a.name}: {a.mode} {a.ty}[{', '.join(a.shape)}]{a.layout}"
                 for a in self.arrays]
        items += [f"{n}: {t}" for n, t in self.scalars]
        r.shuffle(items)
        groups += items
        sep = r.choice((", ", "; ", ";\n    "))
        lines = [f"kernel {self.name}({sep.join(groups)}) {{"]
        for text, _ in self.assumes:
            lines.append(f"  assume {text};")
        lines.append(f"  domain {self.domain}")
        for s in self.statements:
            lines.append(f"  {s}")
        lines.append("}")
        return "\n".join(lines) + "\n"


# --- Damage -------------------------------------------------------------------

def damage(rng, g, text):
    """A kernel that should be rejected; returns (text, what was done)."""
    roll = rng.random()
    if roll < 0.5:
        lead, tokens = mutate.tokenize(text)
        out, edits = mutate.mutate(rng, lead, tokens)
        return out, "tokens:" + ",".join(edits)
    edits = [
        # (name, old, new): the first occurrence of old becomes new.
        ("oob", "[", "[1 + "),
        ("shrink", " + 1]", "]"),
        ("write-input", ": out ", ": in "),
        ("out-read", ": in ", ": out "),
        ("type", "f32", "f64"),
        ("type-int", "i64", "i32"),
        ("unbounded", " < ", " > -1 + "),
        ("no-domain", "domain {", "# domain {"),
        ("no-assume", "assume ", "# assume "),
        ("race", "] = ", " / 2] = "),
        ("undeclared", "n", "nn"),
        ("float-sub", "[i", "[1.5 * i"),
        ("scalar-sub", "[i", "[s0 + i"),
    ]
    name, old, new = rng.choice(edits)
    pos = [k for k in range(len(text)) if text.startswith(old, k)]
    if not pos:
        return text + "kernel\n", name + ":tail"
    k = rng.choice(pos)
    return text[:k] + new + text[k + len(old):], name


# --- Entry points -----------------------------------------------------------------

def generate(seed, number, invalid=0.12):
    """Kernel `number` of `seed`: (text, defines dict, tag).

    tag is 'valid' for kernels meant to be accepted, or the damage applied."""
    rng = random.Random(f"loopy-fuzz:{seed}:{number}")
    nk = 1 if rng.random() < 0.9 else 2
    texts, defines = [], {}
    for kk in range(nk):
        g = Gen(rng, f"k{number}" + ("" if kk == 0 else f"_{kk}"),
                fixed_sizes=(kk == 0))
        # -D applies to every kernel of the file that has the parameter.
        g.assumes = [(t, p) for t, p in g.assumes
                     if not any(re.search(rf"\b{d}\b", t) for d in defines)]
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4)) if g.indices else 1):
            g.statement()
        if rng.random() < 0.01:
            g.statements = []        # a kernel without statements (a warning)
        texts.append(g.text())
        if kk == 0:
            defines = g.defines
            bad_defines = g.bad_defines
    text = "\n".join(texts)
    if rng.random() < 0.03:
        text = "# generated kernel\n// two comment styles\n" + text
    tag = "bad-define" if bad_defines else "valid"
    if rng.random() < invalid:
        text, tag = damage(rng, g, text)
    return text, defines, tag


def main():
    ap = argparse.ArgumentParser(description="Generates random .loop kernels.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--invalid", type=float, default=0.12,
                    help="share of damaged kernels (default 0.12)")
    ap.add_argument("--out", help="write DIR/kNNNNNNN.loop instead of printing")
    args = ap.parse_args()
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for k in range(args.start, args.start + args.count):
        text, defines, tag = generate(args.seed, k, args.invalid)
        dflags = " ".join(f"-D {p}={v}" for p, v in defines.items())
        head = f"# seed {args.seed} kernel {k} ({tag}) {dflags}\n"
        if args.out:
            with open(os.path.join(args.out, f"k{k:08d}.loop"), "w") as f:
                f.write(head + text)
        else:
            print(head + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
