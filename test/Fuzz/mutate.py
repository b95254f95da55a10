#!/usr/bin/env python3
#===- mutate.py - Token-level mutation testing of loopyc -------------------===#
#
# Takes valid .loop files, makes mutated versions of them by token-level edits
# (drop a token, duplicate one, swap two adjacent ones, replace one with
# another token of the file or with a random punctuation, keyword or number),
# and runs loopyc on each through standard input. Whatever the input, loopyc
# must answer with exit status 0, or with exit status 1 and at least one
# `error:` line on stderr. A crash (killed by a signal), a timeout, any other
# exit status, an exit status 1 without an error, or an exit status 0 with
# one is a failure: the script prints the mutated input and loopyc's output
# and exits with 1.
#
# Usage: mutate.py --loopyc PATH [--count N] [--seed S] FILE.loop...
#
#===------------------------------------------------------------------------===#
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys

# Comments and white space are kept between tokens, never mutated, so a
# mutant reads like the original with a few tokens changed.
TOKEN_RE = re.compile(r"""
    (?P<space>(?:\s+|\#[^\n]*|//[^\n]*)+)
  | (?P<token>[A-Za-z_][A-Za-z_0-9]*
             |\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?
             |<=|>=|==|!=|&&|\|\||->
             |.)
""", re.VERBOSE | re.DOTALL)

# Replacement tokens that the file may not contain: the language's keywords
# and built-in names, isl's words, punctuation, and numbers at the edges.
POOL = (
    "kernel domain assume index in out inout f32 f64 i32 i64 f16 bf16 "
    "layout row_major col_major strides sum prod max min select sqrt exp "
    "pow fma abs and or not mod floor ceil exists "
    "( ) [ ] { } , ; : = + - * / % < <= > >= == != && || ! -> @ $ "
    "0 1 -1 2 16 1.5 .5 1e400 2147483648 9223372036854775808 "
    "99999999999999999999999"
).split()

WORD_CHAR = re.compile(r"[A-Za-z0-9_.]")

WHY = {
    "signal": "killed by a signal",
    "timeout": "timed out",
    "status": "exited with an unexpected status",
    "silent": "exited 1 without printing an 'error:' line",
    "noisy": "exited 0 but printed an 'error:' line",
}


def tokenize(text):
    """Returns (lead, tokens): tokens is a list of [token, space after]."""
    lead, tokens = "", []
    for m in TOKEN_RE.finditer(text):
        if m.group("space") is not None:
            if tokens:
                tokens[-1][1] += m.group("space")
            else:
                lead += m.group("space")
        else:
            tokens.append([m.group("token"), ""])
    return lead, tokens


def mutate(rng, lead, tokens):
    """Applies one to three random token edits; returns the mutant text."""
    toks = [list(t) for t in tokens]
    edits = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        if not toks:
            break
        i = rng.randrange(len(toks))
        kind = rng.choice(("drop", "duplicate", "swap", "replace-file",
                           "replace-pool"))
        if kind == "drop":
            del toks[i]
        elif kind == "duplicate":
            toks.insert(i, [toks[i][0], " "])
        elif kind == "swap" and i + 1 < len(toks):
            toks[i][0], toks[i + 1][0] = toks[i + 1][0], toks[i][0]
        elif kind == "replace-file":
            toks[i][0] = rng.choice(tokens)[0]
        else:
            kind = "replace-pool"
            toks[i][0] = rng.choice(POOL)
        edits.append(kind)
    text = lead
    for i, (tok, space) in enumerate(toks):
        text += tok
        # Keep words that the edits made adjacent apart ("n" "16": "n 16").
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        if not space and nxt and WORD_CHAR.match(tok[-1]) and \
                WORD_CHAR.match(nxt[0]):
            space = " "
        text += space
    return text, edits


def run_one(loopyc, text, timeout):
    """Runs loopyc on text; returns (verdict or None, status, stdout, stderr)."""
    try:
        p = subprocess.run([loopyc, "-", "--emit=ir"], input=text.encode(),
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return ("timeout", None, (e.stdout or b"").decode(errors="replace"),
                (e.stderr or b"").decode(errors="replace"))
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    has_error = re.search(r"(^|\s)error: ", err, re.MULTILINE) is not None
    if p.returncode < 0:
        verdict = "signal"
    elif p.returncode not in (0, 1):
        verdict = "status"
    elif p.returncode == 1 and not has_error:
        verdict = "silent"
    elif p.returncode == 0 and has_error:
        verdict = "noisy"
    else:
        verdict = None
    return verdict, p.returncode, out, err


def main():
    ap = argparse.ArgumentParser(
        description="Token-level mutation testing of loopyc.")
    ap.add_argument("--loopyc", required=True, help="the loopyc binary")
    ap.add_argument("--count", type=int, default=500,
                    help="number of mutants (default 500)")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds allowed per run (default 10)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="runs in parallel")
    ap.add_argument("--max-reports", type=int, default=5,
                    help="failures printed in full (default 5)")
    ap.add_argument("files", nargs="+", help=".loop files to mutate")
    args = ap.parse_args()

    # Sorted and deduplicated, so the mutants depend only on the seed and
    # the files, not on the order a shell's glob gave them in.
    sources = []
    for path in sorted(set(args.files)):
        with open(path, encoding="utf-8") as f:
            lead, tokens = tokenize(f.read())
        if tokens:
            sources.append((path, lead, tokens))
    if not sources:
        print("mutate.py: no tokens in the input files", file=sys.stderr)
        return 1

    rng = random.Random(args.seed)
    mutants = []
    for n in range(args.count):
        path, lead, tokens = rng.choice(sources)
        text, edits = mutate(rng, lead, tokens)
        mutants.append((n, path, edits, text))

    failures, statuses = [], {0: 0, 1: 0}
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = pool.map(lambda m: run_one(args.loopyc, m[3], args.timeout),
                           mutants)
        for (n, path, edits, text), (verdict, rc, out, err) in zip(mutants,
                                                                   results):
            if rc in statuses:
                statuses[rc] += 1
            if verdict:
                failures.append((n, path, edits, text, verdict, rc, out, err))

    for n, path, edits, text, verdict, rc, out, err in \
            failures[:args.max_reports]:
        print(f"=== FAIL: mutant {n} of {path} ({', '.join(edits)}): "
              f"loopyc {WHY[verdict]} (status {rc})")
        print("--- input:")
        print(text)
        print("--- stdout:")
        print(out[-4000:])
        print("--- stderr:")
        print(err[-4000:])
    if len(failures) > args.max_reports:
        print(f"... and {len(failures) - args.max_reports} more failures")
    print(f"mutate.py: {args.count} mutants of {len(sources)} files "
          f"(seed {args.seed}): {statuses[1]} rejected with an error, "
          f"{statuses[0]} accepted, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
