#!/usr/bin/env python3
"""Checks the kernels that loopy-extract lifts from a C file against the C
functions they came from.

For each function marked '#pragma loopy kernel' in the file, at each size
set: the C file is compiled with the host C compiler into a driver that
calls the function on random values and writes its arrays; the lifted
kernels of the function run in loopyc's reference interpreter (the helper
run-lifted) on the same values, in the order that the lifted output gives,
with the loops that stay on the host run here from their C headers; every
array must then hold the same values on both sides.

  c-check.py --loopyc BIN/loopyc [--cc cc] [--cflag FLAG]... [--source C]...
              [--sizes 5,6] [--plant OLD NEW] FILE.c

--plant replaces the first OLD in the lifted text by NEW before the run,
to show that the check fails on a wrongly lifted kernel. Prints one line
per function; exit status 1 on any difference or error.
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile


def split_top(text, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


# The element types of arrays: the range of the random values each gets
# (integers take every value of the 8-bit types, small ones otherwise, so
# that C's int arithmetic on them does not overflow), or None for doubles.
ELEMENTS = {"double": None, "int": (-1000, 1000),
            "signed char": (-128, 127), "unsigned char": (0, 255),
            "short": (-4096, 4096), "unsigned short": (0, 8191)}


def marked_functions(src):
    """(name, params, first line, last line) of each marked function;
    params are (kind, name, dims, element) with kind 'int', 'double' or
    'array', and element an array's C element type (ELEMENTS)."""
    funcs = []
    for m in re.finditer(r"#pragma loopy kernel[^\n]*\n(?:#pragma loopy[^\n]*\n)*"
                         r"\s*(?:static\s+)?void\s+(\w+)\s*\(", src):
        name = m.group(1)
        start = m.end()
        depth, i = 1, start
        while depth:
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            i += 1
        params = []
        for p in split_top(src[start:i - 1]):
            if "[" in p:
                base = p[:p.index("[")].split()
                dims = re.findall(r"\[([^\]]*)\]", p)
                dims = [d.replace("restrict", "").strip() for d in dims]
                element = " ".join(t for t in base[:-1] if t != "const")
                if element not in ELEMENTS:
                    sys.exit("c-check: arrays of %s are supported, not: %s"
                             % (", ".join(ELEMENTS), p))
                params.append(("array", base[-1], dims, element))
            else:
                toks = p.split()
                kind = "int" if toks[0] in ("int", "long") else "double"
                params.append((kind, toks[-1], [], None))
        body = src.index("{", i)
        depth, j = 1, body + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            j += 1
        first = src.count("\n", 0, m.start()) + 1
        last = src.count("\n", 0, j) + 1
        funcs.append((name, params, first, last))
    return funcs


def lifted_kernels(text):
    """(kernel name, C line of its nest, host loop indices) in order."""
    kernels = []
    line, host = None, []
    for l in text.splitlines():
        m = re.match(r"# lifted by loopy-extract from .*:(\d+)$", l)
        if m:
            line, host = int(m.group(1)), []
            continue
        m = re.match(r"# inside the loops over (.*), which stay on the host", l)
        if m:
            host = re.findall(r"'(\w+)'", m.group(1))
            continue
        m = re.match(r"kernel (\w+)\(", l)
        if m:
            kernels.append((m.group(1), line, host))
    return kernels


def c_expr(e):
    e = e.replace("&&", " and ").replace("||", " or ").replace("!=", " != ")
    return e


def host_iterations(lines, nest_line, host, env):
    """The values of the host loops around the nest at nest_line, in the
    order C runs them, from the headers of the loops above it."""
    headers = []
    for name in host:
        for n in range(nest_line - 1, 0, -1):
            m = re.match(r"\s*for\s*\(\s*(?:int\s+)?" + name +
                         r"\s*=\s*([^;]*);([^;]*);([^)]*)\)", lines[n - 1])
            if m and n < nest_line:
                headers.append((name, m.group(1), m.group(2), m.group(3).strip()))
                break
        else:
            sys.exit("c-check: no header of the host loop '%s' above line %d"
                     % (name, nest_line))

    def walk(depth, scope):
        if depth == len(headers):
            yield dict((n, scope[n]) for n in host)
            return
        name, start, cond, inc = headers[depth]
        m = re.match(r"(\+\+\s*%s|%s\s*\+\+|%s\s*\+=\s*(\d+)|--\s*%s|%s\s*--|%s\s*-=\s*(\d+))$"
                     % ((name,) * 6), inc)
        if not m:
            sys.exit("c-check: cannot step the host loop '%s' (%s)" % (name, inc))
        step = 1
        if m.group(2):
            step = int(m.group(2))
        if "-" in inc:
            step = -int(m.group(3) or 1)
        v = eval(c_expr(start), {}, dict(scope))
        while True:
            s = dict(scope)
            s[name] = v
            if not eval(c_expr(cond), {}, s):
                break
            yield from walk(depth + 1, s)
            v += step

    return list(walk(0, dict(env)))


def write_doubles(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dd" % len(values), *values))


def read_doubles(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack("<%dd" % (len(data) // 8), data))


def driver_source(path, funcs):
    # A main function of the file itself is renamed out of the way.
    out = ["#define main c_check_file_main", '#include "%s"' % path, "#undef main",
           "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
           "static double *load(const char *dir, const char *name, long n) {",
           "  char p[4096]; snprintf(p, sizeof p, \"%s/%s.in\", dir, name);",
           "  double *a = malloc((n ? n : 1) * sizeof(double)); FILE *f = fopen(p, \"rb\");",
           "  if (!f || fread(a, sizeof(double), n, f) != (size_t)n) exit(2);",
           "  fclose(f); return a; }",
           "static void save(const char *dir, const char *name, double *a, long n) {",
           "  char p[4096]; snprintf(p, sizeof p, \"%s/%s.cout\", dir, name);",
           "  FILE *f = fopen(p, \"wb\"); if (!f) exit(2);",
           "  fwrite(a, sizeof(double), n, f); fclose(f); }",
           "int main(int argc, char **argv) {",
           "  const char *dir = argv[2]; (void)argc;"]
    for name, params, _, _ in funcs:
        out.append('  if (!strcmp(argv[1], "%s")) {' % name)
        args = []
        for k, (kind, pname, _, element) in enumerate(params):
            a = "argv[%d]" % (k + 3)
            if kind == "int":
                out.append("    int %s = atoi(%s);" % (pname, a))
                args.append(pname)
            elif kind == "double":
                out.append("    double %s = strtod(%s, 0);" % (pname, a))
                args.append(pname)
            else:
                # The values as doubles (d_NAME), the array of the element
                # type converted from them and back.
                out.append('    long n_%s = atol(%s); double *d_%s = load(dir, "%s", n_%s);'
                           % (pname, a, pname, pname, pname))
                out.append("    %s *%s = malloc((n_%s ? n_%s : 1) * sizeof *%s);"
                           % (element, pname, pname, pname, pname))
                out.append("    for (long e = 0; e < n_%s; e++) %s[e] = (%s)d_%s[e];"
                           % (pname, pname, element, pname))
                args.append("(void *)" + pname)
        out.append("    %s(%s);" % (name, ", ".join(args)))
        for kind, pname, _, _ in params:
            if kind == "array":
                out.append("    for (long e = 0; e < n_%s; e++) d_%s[e] = (double)%s[e];"
                           % (pname, pname, pname))
                out.append('    save(dir, "%s", d_%s, n_%s);' % (pname, pname, pname))
        out.append("    return 0;\n  }")
    out.append("  return 1;\n}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loopyc", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--sizes", default="5,6")
    ap.add_argument("--plant", nargs=2, metavar=("OLD", "NEW"))
    ap.add_argument("--cflag", action="append", default=[],
                    help="a flag for loopy-extract and cc (repeatable)")
    ap.add_argument("--source", action="append", default=[],
                    help="another C file that the driver links (repeatable)")
    ap.add_argument("file")
    args = ap.parse_args()
    bindir = os.path.dirname(os.path.abspath(args.loopyc))
    path = os.path.abspath(args.file)
    src = open(path).read()
    lines = src.splitlines()
    funcs = marked_functions(src)

    lifted = subprocess.run([os.path.join(bindir, "loopy-extract"), path] +
                            (["--"] + args.cflag if args.cflag else []),
                            capture_output=True, text=True)
    if lifted.returncode:
        sys.stderr.write(lifted.stderr)
        sys.exit("c-check: loopy-extract failed")
    text = lifted.stdout
    if args.plant:
        old, new = args.plant
        if old not in text:
            sys.exit("c-check: '%s' is not in the lifted text" % old)
        text = text.replace(old, new, 1)
    kernels = lifted_kernels(text)

    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        loop = os.path.join(tmp, "lifted.loop")
        open(loop, "w").write(text)
        drv = os.path.join(tmp, "driver.c")
        open(drv, "w").write(driver_source(path, funcs))
        exe = os.path.join(tmp, "driver")
        cc = subprocess.run([args.cc, "-std=gnu99", "-O1", "-w"] + args.cflag +
                            [drv] + args.source + ["-o", exe, "-lm"],
                            capture_output=True, text=True)
        if cc.returncode:
            sys.stderr.write(cc.stderr)
            sys.exit("c-check: %s failed" % args.cc)
        for name, params, first, last in funcs:
            mine = [k for k in kernels if k[1] is not None and first <= k[1] <= last]
            if not mine:
                print("%s: no lifted kernel" % name)
                failed = True
                continue
            for base in [int(s) for s in args.sizes.split(",")]:
                rng = random.Random("%s/%d" % (name, base))
                env, argv, count = {}, [], {}
                ints = [p for p in params if p[0] == "int"]
                for k, (_, pname, _, _) in enumerate(ints):
                    env[pname] = base + 2 * k
                d = os.path.join(tmp, "%s-%d" % (name, base))
                os.mkdir(d)
                envtxt = []
                for kind, pname, dims, element in params:
                    if kind == "int":
                        argv.append(str(env[pname]))
                        envtxt.append("int %s %d" % (pname, env[pname]))
                    elif kind == "double":
                        v = rng.uniform(0.5, 1.5)
                        argv.append(repr(v))
                        envtxt.append("double %s %r" % (pname, v))
                    else:
                        n = 1
                        for dim in dims:
                            n *= eval(c_expr(dim), {}, dict(env))
                        if ELEMENTS[element]:
                            vals = [float(rng.randint(*ELEMENTS[element]))
                                    for _ in range(n)]
                        else:
                            vals = [rng.uniform(0.5, 1.5) * rng.choice((-1, 1))
                                    for _ in range(n)]
                        write_doubles(os.path.join(d, pname + ".in"), vals)
                        count[pname] = n
                        argv.append(str(n))
                        envtxt.append("array %s %d" % (pname, n))
                launches = 0
                i = 0
                while i < len(mine):
                    j = i + 1
                    while mine[i][2] and j < len(mine) and mine[j][2] == mine[i][2]:
                        j += 1
                    group = mine[i:j]
                    if not mine[i][2]:
                        iters = [{}]
                    else:
                        iters = host_iterations(lines, mine[i][1], mine[i][2], env)
                    for it in iters:
                        for k in group:
                            envtxt.append("launch %s%s" % (k[0], "".join(
                                " %s=%d" % kv for kv in sorted(it.items()))))
                            launches += 1
                    i = j
                open(os.path.join(d, "env.txt"), "w").write("\n".join(envtxt) + "\n")
                c = subprocess.run([exe, name, d] + argv, capture_output=True, text=True)
                r = subprocess.run([os.path.join(bindir, "run-lifted"), loop, d],
                                   capture_output=True, text=True)
                if c.returncode or r.returncode:
                    print("%s at %d: FAIL: %s%s" % (name, base, c.stderr, r.stderr.strip()))
                    failed = True
                    continue
                bad = ""
                for pname, n in count.items():
                    a = read_doubles(os.path.join(d, pname + ".cout"))
                    b = read_doubles(os.path.join(d, pname + ".out"))
                    scale = max([1.0] + [abs(x) for x in a])
                    for e, (x, y) in enumerate(zip(a, b)):
                        if not abs(x - y) <= 1e-9 * scale:
                            bad = "%s[%d] is %r in C, %r lifted" % (pname, e, x, y)
                            break
                    if bad:
                        break
                sizes = ", ".join("%s = %d" % (p[1], env[p[1]]) for p in ints)
                if bad:
                    print("%s (%s): FAIL: %s" % (name, sizes, bad))
                    failed = True
                else:
                    print("%s (%s): %d kernels, %d launches match the C function"
                          % (name, sizes, len(mine), launches))
    sys.exit(1 if failed else 0)


main()
