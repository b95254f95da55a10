#!/usr/bin/env python3
#===- reduce.py - Shrinks a kernel while loopyc keeps failing the same way --===#
#
# Delta debugging over lines, then over tokens (with balanced bracket groups
# tried as a whole), then a few simplifications (a subexpression in
# parentheses replaced by its first operand, numbers by 0 or 1). A candidate
# is kept when loopyc still fails the same way:
#
#   --class accepted-not-lowered   --emit=ir exits 0 and --emit=cuda exits 1
#   --class internal-error | signal | hang | error-without-message |
#           success-with-error | nondeterministic
#                                  the same class at the flags given (with
#                                  --accepted, only where --emit=ir accepts
#                                  the kernel)
# and, with --match REGEX, the stderr (or the difference) matches REGEX.
#
# Usage: reduce.py --loopyc PATH --class CLASS [--match RE] KERNEL.loop
#                  [-- LOOPYC FLAGS]       prints the reduced kernel
#
#===------------------------------------------------------------------------===#
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402
import run  # noqa: E402


class Args:
    pass


def make_test(opts):
    a = Args()
    a.loopyc, a.max_mem_mb = opts.loopyc, opts.max_mem_mb
    flags = opts.flags or []
    rx = re.compile(opts.match) if opts.match else None
    cls = opts.cls

    def matches(res):
        return rx is None or rx.search(res.err + res.out) is not None

    def test(text):
        if cls == "accepted-not-lowered":
            ir = run.run_loopyc(a, text, ["--emit=ir"] + strip_emit(flags),
                                opts.timeout)
            if ir.timed_out or ir.rc != 0 or ir.has_error():
                return False
            cu = run.run_loopyc(a, text, ["--emit=cuda"] + strip_emit(flags),
                                opts.timeout)
            return not cu.timed_out and cu.rc == 1 and matches(cu)
        if cls == "nondeterministic":
            outs = set()
            for _ in range(opts.repeat):
                r = run.run_loopyc(a, text, flags, opts.timeout)
                if r.timed_out:
                    return False
                outs.add((r.rc, r.out, r.err))
            return len(outs) > 1
        if opts.accepted:
            ir = run.run_loopyc(a, text, ["--emit=ir"] + strip_emit(flags),
                                opts.timeout)
            if ir.timed_out or ir.rc != 0 or ir.has_error():
                return False
        r = run.run_loopyc(a, text, flags, opts.timeout)
        return run.verdict(r) == cls and matches(r)
    return test


def strip_emit(flags):
    return [f for f in flags if not f.startswith("--emit")]


def ddmin(items, test, join):
    """Removes chunks of items while test(join(items)) holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        removed = False
        for start in range(0, len(items), chunk):
            cand = items[:start] + items[start + chunk:]
            if cand and test(join(cand)):
                items, removed = cand, True
                n = max(n - 1, 2)
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def join_tokens(lead, toks):
    text = lead
    for i, (tok, space) in enumerate(toks):
        text += tok
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        if not space and nxt and mutate.WORD_CHAR.match(tok[-1]) and \
                mutate.WORD_CHAR.match(nxt[0]):
            space = " "
        text += space
    return text


def groups(toks):
    """Spans (start, end) of balanced (), [] groups, largest first."""
    spans, stack = [], []
    for i, (t, _) in enumerate(toks):
        if t in "([":
            stack.append(i)
        elif t in ")]" and stack:
            s = stack.pop()
            spans.append((s, i + 1))
    return sorted(spans, key=lambda s: s[0] - s[1])


def reduce(text, test):
    lines = ddmin(text.splitlines(True), test, "".join)
    text = "".join(lines)
    changed = True
    while changed:
        changed = False
        lead, toks = mutate.tokenize(text)
        # A bracket group replaced by its first operand or dropped.
        for s, e in groups(toks):
            inner = toks[s + 1:e - 1]
            for cand in (toks[:s] + toks[e:],
                         toks[:s] + inner[:1] + toks[e:],
                         toks[:s + 1] + inner[:1] + toks[e - 1:]):
                if len(cand) < len(toks) and test(join_tokens(lead, cand)):
                    text, changed = join_tokens(lead, cand), True
                    break
            if changed:
                break
        if changed:
            continue
        new = ddmin(toks, lambda t: test(join_tokens(lead, t)),
                    lambda t: t)
        if len(new) < len(toks):
            text, changed = join_tokens(lead, new), True
    return text


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        k = argv.index("--")
        argv, flags = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(description="Shrinks a failing kernel.")
    ap.add_argument("--loopyc", required=True)
    ap.add_argument("--class", dest="cls", required=True,
                    choices=run.CLASSES)
    ap.add_argument("--match", help="regex the failure's output must match")
    ap.add_argument("--accepted", action="store_true",
                    help="keep only kernels that --emit=ir accepts (for "
                         "failures at --emit=cuda)")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--repeat", type=int, default=4,
                    help="runs per nondeterminism test (default 4)")
    ap.add_argument("--max-mem-mb", type=int, default=4096)
    ap.add_argument("kernel")
    opts = ap.parse_args(argv)
    opts.flags = flags
    text = open(opts.kernel).read()
    test = make_test(opts)
    if not test(text):
        print("reduce.py: the kernel does not fail that way", file=sys.stderr)
        return 1
    print(reduce(text, test), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
