#!/usr/bin/env python3
#===- run.py - Runs generated kernels through loopyc and classifies them ---===#
#
# Generates kernels with gen.py (kernel K of seed S is the same on every
# machine) and runs loopyc on each, through standard input:
#
#   1. every kernel at --emit=ir, with the -D sizes the generator chose;
#   2. a share of the accepted ones (--cuda-fraction) at --emit=cuda, which
#      lowers the first-ranked variant;
#   3. a share of those (--det-fraction) twice at --emit=cuda --all-variants,
#      whose outputs must be byte-identical;
#   4. a share of the lowered ones (--check-fraction) at --check=opencl with
#      a few sampled variants (--check-sample), on random inputs, sizes not
#      fixed by the generator taken as --check-size: every variant run must
#      match the reference interpreter. A check that cannot run (sizes
#      against the assumptions, slower than --timeout) is counted, not a
#      failure.
#
# Failure classes (every one makes the exit status 1 unless --allow names it):
#
#   signal                  loopyc was killed by a signal (a crash), other
#                           than the CPU-time limit's SIGXCPU and SIGKILL
#   internal-error          exit status 2 (loopyc: internal error)
#   hang                    more than --timeout seconds of CPU time (the
#                           limit's SIGXCPU, or its SIGKILL two seconds on)
#   bad-status              any other exit status
#   error-without-message   exit status 1 without an 'error:' line
#   success-with-error      exit status 0 with an 'error:' line
#   accepted-not-lowered    accepted at --emit=ir, then --emit=cuda exits 1
#   variant-not-lowered     --emit=cuda lowers the first variant, but
#                           --emit=cuda --all-variants exits 1: the planner
#                           offers a variant it cannot lower
#   nondeterministic        two --all-variants runs gave different output
#   wrong-result            a sampled variant's output differs from the
#                           reference interpreter's on PoCL
#
# The first four name the stage in the saved record (ir, cuda, all-variants).
# Also counted, never a failure: kernels meant to be valid that the checks
# reject (valid-rejected, a few are saved under info/ to review the
# generator), and determinism probes skipped because a run took longer than
# --det-timeout.
#
# Each failure is saved in OUT/CLASS/kNNNNNNNN-STAGE/: kernel.loop, cmd
# (the command that reproduces it), stdout, stderr (at most --keep per class;
# the counts are exact). The run prints a summary by class with the seed and
# writes it to OUT/summary-START.json.
#
# Usage:
#   run.py --loopyc build/bin/loopyc --seed 1 --count 3000 --out /tmp/fuzz
#   run.py --loopyc ... --allow accepted-not-lowered,nondeterministic ...
#   run.py --merge OUT      totals of every summary-*.json in OUT
#   run.py --show S K       prints kernel K of seed S and its -D options
# The ctest entry `fuzz` (test/CMakeLists.txt) is a CI-sized run; long runs
# go through scripts/fuzz-long.sh; reduce.py shrinks a saved failure.
#
#===------------------------------------------------------------------------===#
import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

CLASSES = ["signal", "internal-error", "hang", "bad-status",
           "error-without-message", "success-with-error",
           "accepted-not-lowered", "variant-not-lowered", "nondeterministic",
           "wrong-result"]
ERROR_RE = re.compile(r"(^|\s)error: ", re.MULTILINE)


class Result:
    def __init__(self, rc, out, err, secs, timed_out=False):
        self.rc, self.out, self.err = rc, out, err
        self.secs, self.timed_out = secs, timed_out

    def has_error(self):
        return ERROR_RE.search(self.err) is not None


def limits(mb, cpu):
    """Sets the memory and CPU-time limits of a loopyc run: a run over its
    CPU time gets SIGXCPU, which counts as a hang."""
    def apply():
        if mb:
            resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        c = max(1, int(cpu + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (c, c + 2))
    return apply


def run_loopyc(args, text, flags, timeout):
    """Runs loopyc on text. timeout is CPU seconds (all threads together),
    so that a loaded machine does not turn slow runs into hangs; ten times
    as many seconds of wall-clock time is the backstop."""
    cmd = [args.loopyc, "-"] + thread_flags(args) + flags
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, input=text.encode(), capture_output=True,
                           timeout=10 * timeout + 10,
                           preexec_fn=limits(args.max_mem_mb, timeout))
    except subprocess.TimeoutExpired as e:
        return Result(None, (e.stdout or b"").decode(errors="replace"),
                      (e.stderr or b"").decode(errors="replace"),
                      time.monotonic() - start, timed_out=True)
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    # Past the CPU-time limit the kernel sends SIGXCPU, and SIGKILL two
    # seconds later where the run did not end on the first (a library's
    # handler of SIGXCPU, such as LLVM's in PoCL, may keep it going); the
    # memory limit makes allocations fail rather than the OOM killer act.
    if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return Result(None, out, err, time.monotonic() - start, timed_out=True)
    return Result(p.returncode, out, err, time.monotonic() - start)


def thread_flags(args):
    """loopyc's -j: a fixed count, so that a kernel's outcome does not
    depend on the machine's cores (a thread per core of a large machine
    also takes more address space than --max-mem-mb allows)."""
    return ["-j", str(args.loopyc_jobs)]


def verdict(res):
    """The failure class of one run, or None when it answered properly."""
    if res.timed_out:
        return "hang"
    if res.rc < 0:
        return "signal"
    if res.rc == 2:
        return "internal-error"
    if res.rc not in (0, 1):
        return "bad-status"
    if res.rc == 1 and not res.has_error():
        return "error-without-message"
    if res.rc == 0 and res.has_error():
        return "success-with-error"
    return None


def dflags(defines):
    out = []
    for p, v in defines.items():
        out += ["-D", f"{p}={v}"]
    return out


class Runner:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.counts = {c: 0 for c in CLASSES}
        self.stages = {}            # "class/stage" -> count
        self.stats = {"kernels": 0, "valid": 0, "accepted": 0,
                      "rejected": 0, "valid-rejected": 0, "cuda-runs": 0,
                      "cuda-ok": 0, "det-probes": 0, "det-skipped": 0,
                      "ir-seconds": 0.0, "cuda-seconds": 0.0}
        self.saved = {}
        self.reasons = {}           # class -> normalized message -> count
        self.examples = {}          # class -> first kernel numbers

    def save(self, cls, k, stage, text, flags, res, extra="", cause=None):
        a = self.args
        with self.lock:
            self.counts[cls] = self.counts.get(cls, 0) + 1
            key = f"{cls}/{stage}"
            self.stages[key] = self.stages.get(key, 0) + 1
            ex = self.examples.setdefault(cls, [])
            if len(ex) < 10:
                ex.append(k)
            why = self.reasons.setdefault(cls, {})
            r = cause or (reason(res) if res is not None else "?")
            why[r] = why.get(r, 0) + 1
            n = self.saved.get(cls, 0)
            if n >= a.keep or not a.out:
                return
            self.saved[cls] = n + 1
        where = cls if cls in CLASSES else os.path.join("info", cls)
        d = os.path.join(a.out, where, f"k{k:08d}-{stage}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "kernel.loop"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "cmd"), "w") as f:
            f.write(f"# seed {a.seed} kernel {k}: {cls} at {stage}\n")
            f.write(" ".join(["loopyc", "kernel.loop"] + thread_flags(a) +
                             flags) + "\n")
            if res is not None:
                f.write(f"# exit status {res.rc}"
                        f"{' (over the time limit)' if res.timed_out else ''}"
                        f", {res.secs:.2f} s\n")
            f.write(extra)
        if res is not None:
            with open(os.path.join(d, "stdout"), "w") as f:
                f.write(res.out[-200000:])
            with open(os.path.join(d, "stderr"), "w") as f:
                f.write(res.err[-200000:])

    def one(self, k):
        a = self.args
        text, defines, tag = gen.generate(a.seed, k, a.invalid)
        # Which later stages a kernel takes depends only on (seed, k).
        roll = random.Random(f"loopy-fuzz-stage:{a.seed}:{k}")
        to_cuda = roll.random() < a.cuda_fraction
        to_det = roll.random() < a.det_fraction
        to_check = roll.random() < a.check_fraction
        fl = ["--emit=ir"] + dflags(defines)
        res = run_loopyc(a, text, fl, a.timeout)
        with self.lock:
            self.stats["kernels"] += 1
            self.stats["ir-seconds"] += res.secs
            if tag == "valid":
                self.stats["valid"] += 1
        v = verdict(res)
        if v:
            self.save(v, k, "ir", text, fl, res)
            return
        if res.rc != 0:
            with self.lock:
                self.stats["rejected"] += 1
                if tag == "valid":
                    self.stats["valid-rejected"] += 1
            if tag == "valid":
                self.save("valid-rejected", k, "ir", text, fl, res)
            return
        with self.lock:
            self.stats["accepted"] += 1
            if tag not in ("valid", "bad-define"):
                self.stats["damaged-accepted"] = \
                    self.stats.get("damaged-accepted", 0) + 1
        if not to_cuda:
            return
        fl = ["--emit=cuda"] + dflags(defines)
        res = run_loopyc(a, text, fl, a.timeout)
        with self.lock:
            self.stats["cuda-runs"] += 1
            self.stats["cuda-seconds"] += res.secs
        v = verdict(res)
        if v:
            self.save(v, k, "cuda", text, fl, res)
            return
        if res.rc != 0:
            self.save("accepted-not-lowered", k, "cuda", text, fl, res)
            return
        with self.lock:
            self.stats["cuda-ok"] += 1
        if to_check:
            self.check(k, text, defines)
        if not to_det:
            return
        fl = ["--emit=cuda", "--all-variants"] + dflags(defines)
        first = run_loopyc(a, text, fl, a.det_timeout)
        second = None if first.timed_out else \
            run_loopyc(a, text, fl, a.det_timeout)
        with self.lock:
            self.stats["det-probes"] += 1
        if first.timed_out or second.timed_out:
            with self.lock:
                self.stats["det-skipped"] += 1
            return
        for r in (first, second):
            v = verdict(r)
            if v:
                self.save(v, k, "all-variants", text, fl, r)
                return
        same = (first.rc, first.out, first.err) == (second.rc, second.out,
                                                    second.err)
        if first.rc == 1 and same:
            self.save("variant-not-lowered", k, "all-variants", text, fl,
                      first)
            return
        if not same:
            diff = first_difference(first, second)
            self.save("nondeterministic", k, "all-variants", text, fl, first,
                      extra=f"# the second run (exit status {second.rc}) "
                            f"differs: {diff}\n",
                      cause=re.sub(r"\d+", "N", diff.split(":")[0]))
            if a.out and self.saved.get("nondeterministic", 0) <= a.keep:
                # Both outputs whole: they may differ anywhere.
                d = os.path.join(a.out, "nondeterministic",
                                 f"k{k:08d}-all-variants")
                for name, r in (("1", first), ("2", second)):
                    with open(os.path.join(d, "stdout." + name), "w") as f:
                        f.write(r.out)
                    with open(os.path.join(d, "stderr." + name), "w") as f:
                        f.write(r.err)

    def check(self, k, text, defines):
        """Stage 4: sampled variants run on PoCL against the interpreter."""
        a = self.args
        fl = ["--check=opencl", f"--sample={a.check_sample}", "--every-strategy",
              f"--all-params={a.check_size}"] + dflags(defines)
        res = run_loopyc(a, text, fl, a.timeout)
        with self.lock:
            self.stats["check-runs"] = self.stats.get("check-runs", 0) + 1
        failed = [l for l in res.out.splitlines() if l.startswith("FAIL ")]
        if failed:
            first = failed[0].split(": ", 1)[-1]
            self.save("wrong-result", k, "check", text, fl, res,
                      cause=re.sub(r"\d[\d.e+-]*", "N", first)[:100])
            return
        v = None if res.timed_out else verdict(res)
        if v:
            self.save(v, k, "check", text, fl, res)
            return
        if res.rc != 0 or res.timed_out:
            with self.lock:
                self.stats["check-skipped"] = \
                    self.stats.get("check-skipped", 0) + 1

    def summary(self, secs):
        a = self.args
        return {"seed": a.seed, "start": a.start, "count": a.count,
                "seconds": round(secs, 1), "counts": self.counts,
                "stages": self.stages, "stats": self.stats,
                "reasons": self.reasons,
                "examples": self.examples}


def reason(res):
    """The first error line with names and numbers taken out, to group
    failures by cause."""
    if res.timed_out:
        return "over the CPU-time limit (or 10 times it in wall time)"
    if res.rc is not None and res.rc < 0:
        return f"signal {-res.rc}"
    for line in res.err.splitlines():
        if "error:" in line:
            line = line[line.index("error:"):]
            line = re.sub(r"'[^']*'", "'X'", line)
            line = re.sub(r"\bS\d+\b", "S#", line)
            line = re.sub(r"\b\d+\b", "N", line)
            return line[:160]
    return f"exit status {res.rc}, no error line"


def first_difference(x, y):
    if x.rc != y.rc:
        return f"exit status {x.rc} then {y.rc}"
    for name, s, t in (("stdout", x.out, y.out), ("stderr", x.err, y.err)):
        if s != t:
            la, lb = s.splitlines(), t.splitlines()
            for n, (p, q) in enumerate(zip(la, lb)):
                if p != q:
                    return f"{name} line {n + 1}: {p[:120]!r} vs {q[:120]!r}"
            return f"{name} has {len(la)} then {len(lb)} lines"
    return "?"


def print_summary(s, allow, out=sys.stdout):
    st = s["stats"]
    ranges = s.get("ranges", [[s["start"], s["count"]]])
    spans = " and ".join(f"{a} to {a + n - 1}" for a, n in ranges)
    print(f"fuzz: seed {s['seed']}, kernels {spans}, {s['seconds']} s",
          file=out)
    print(f"  generated {st['kernels']} ({st['valid']} meant valid); "
          f"--emit=ir accepted {st['accepted']}, rejected {st['rejected']} "
          f"({st['valid-rejected']} of them meant valid; "
          f"{st.get('damaged-accepted', 0)} damaged ones accepted)", file=out)
    print(f"  --emit=cuda runs {st['cuda-runs']} ({st['cuda-ok']} lowered); "
          f"determinism probes {st['det-probes']} "
          f"({st['det-skipped']} skipped: slower than the limit)", file=out)
    print(f"  loopyc: {st.get('cpu-seconds', 0):.1f} s of CPU time; wall "
          f"time at ir {st['ir-seconds']:.1f} s, at cuda "
          f"{st['cuda-seconds']:.1f} s", file=out)
    failed = 0
    for c in CLASSES:
        n = s["counts"].get(c, 0)
        stages = ", ".join(f"{k.split('/')[1]} {v}"
                           for k, v in sorted(s["stages"].items())
                           if k.split("/")[0] == c)
        note = "" if not n else \
            (" (allowed)" if c in allow else " FAIL") + f" [{stages}]" + \
            " e.g. kernels " + " ".join(map(str, sorted(s["examples"].get(c, []))[:5]))
        print(f"  {c:24s} {n}{note}", file=out)
        reasons = sorted(s.get("reasons", {}).get(c, {}).items(),
                         key=lambda kv: -kv[1])
        for r, m in reasons[:8]:
            print(f"      {m:6d}  {r}", file=out)
        if n and c not in allow:
            failed += n
    print(f"fuzz: {failed} failures (seed {s['seed']})", file=out)
    return failed


def merge(folder, allow):
    total = None
    ranges = []
    for path in sorted(glob.glob(os.path.join(folder, "summary-*.json"))):
        with open(path) as f:
            s = json.load(f)
        ranges.append([s["start"], s["count"]])
        if total is None:
            total = s
            continue
        if s["seed"] != total["seed"]:
            print(f"run.py: {path} has seed {s['seed']}, not {total['seed']}",
                  file=sys.stderr)
        total["start"] = min(total["start"], s["start"])
        total["count"] += s["count"]
        total["seconds"] += s["seconds"]
        for c, rs in s.get("reasons", {}).items():
            t = total.setdefault("reasons", {}).setdefault(c, {})
            for r, v in rs.items():
                t[r] = t.get(r, 0) + v
        for key in ("counts", "stages", "stats"):
            for c, v in s[key].items():
                total[key][c] = total[key].get(c, 0) + v
        for c, ks in s["examples"].items():
            total["examples"].setdefault(c, []).extend(ks)
    if total is None:
        print(f"run.py: no summary-*.json in {folder}", file=sys.stderr)
        return 1
    total["seconds"] = round(total["seconds"], 1)
    # The ranges of kernels the summaries cover, adjacent ones joined.
    total["ranges"] = []
    for a, n in sorted(ranges):
        last = total["ranges"][-1] if total["ranges"] else None
        if last and last[0] + last[1] >= a:
            last[1] = max(last[1], a + n - last[0])
        else:
            total["ranges"].append([a, n])
    return 1 if print_summary(total, allow) else 0


def main():
    ap = argparse.ArgumentParser(
        description="Runs generated kernels through loopyc and classifies "
                    "the failures.")
    ap.add_argument("--loopyc", help="the loopyc binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0,
                    help="number of the first kernel (default 0)")
    ap.add_argument("--count", type=int, default=1000,
                    help="kernels to generate (default 1000)")
    ap.add_argument("--invalid", type=float, default=0.12,
                    help="share of kernels damaged on purpose (default 0.12)")
    ap.add_argument("--cuda-fraction", type=float, default=0.1,
                    help="share of accepted kernels run at --emit=cuda "
                         "(default 0.1)")
    ap.add_argument("--det-fraction", type=float, default=0.05,
                    help="share of those probed for determinism (default 0.05)")
    ap.add_argument("--check-fraction", type=float, default=0.0,
                    help="share of lowered kernels checked on PoCL "
                         "(default 0)")
    ap.add_argument("--check-sample", type=int, default=3,
                    help="variants sampled per checked kernel (default 3)")
    ap.add_argument("--check-size", type=int, default=13,
                    help="value of the sizes the generator left free, in "
                         "checks (default 13)")
    ap.add_argument("--timeout", type=float, default=20,
                    help="CPU seconds before a run counts as a hang "
                         "(default 20)")
    ap.add_argument("--det-timeout", type=float, default=60,
                    help="CPU seconds allowed to an --all-variants run; a "
                         "slower one skips the probe (default 60)")
    ap.add_argument("--max-mem-mb", type=int, default=4096,
                    help="address-space limit of each loopyc (default 4096, "
                         "0: none)")
    ap.add_argument("--loopyc-jobs", type=int, default=4,
                    help="threads of each loopyc run, its -j (default 4)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="loopyc runs at once (default 1)")
    ap.add_argument("--out", help="folder for the failures and the summary")
    ap.add_argument("--clean", action="store_true",
                    help="empty OUT first")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print the counts every N kernels on stderr")
    ap.add_argument("--keep", type=int, default=100,
                    help="failures saved per class (default 100)")
    ap.add_argument("--allow", default="",
                    help="comma-separated classes reported without failing")
    ap.add_argument("--merge", metavar="OUT",
                    help="print the totals of OUT/summary-*.json and exit")
    ap.add_argument("--show", nargs=2, type=int, metavar=("SEED", "K"),
                    help="print kernel K of seed SEED and exit")
    args = ap.parse_args()
    allow = {c for c in args.allow.split(",") if c}
    unknown = allow - set(CLASSES)
    if unknown:
        ap.error(f"unknown class in --allow: {', '.join(sorted(unknown))}; "
                 f"the classes are {', '.join(CLASSES)}")
    if args.merge:
        return merge(args.merge, allow)
    if args.show:
        text, defines, tag = gen.generate(args.show[0], args.show[1],
                                          args.invalid)
        print(f"# {tag}: loopyc kernel.loop "
              + " ".join(dflags(defines)))
        print(text, end="")
        return 0
    if not args.loopyc:
        ap.error("--loopyc is needed")
    if not shutil.which(args.loopyc) and not os.access(args.loopyc, os.X_OK):
        ap.error(f"cannot run {args.loopyc}")
    if args.out:
        if args.clean:
            shutil.rmtree(args.out, ignore_errors=True)
        os.makedirs(args.out, exist_ok=True)

    r = Runner(args)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(r.one, k)
                   for k in range(args.start, args.start + args.count)]
        for n, f in enumerate(futures, 1):
            f.result()
            if args.progress and n % args.progress == 0:
                with r.lock:
                    bad = {c: v for c, v in r.counts.items() if v}
                print(f"fuzz: {n} kernels, {time.monotonic() - start:.0f} s, "
                      f"{bad}", file=sys.stderr, flush=True)
    s = r.summary(time.monotonic() - start)
    st = s["stats"]
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    st["cpu-seconds"] = round(ru.ru_utime + ru.ru_stime, 1)
    st["ir-seconds"] = round(st["ir-seconds"], 1)
    st["cuda-seconds"] = round(st["cuda-seconds"], 1)
    if args.out:
        with open(os.path.join(args.out, f"summary-{args.start}.json"),
                  "w") as f:
            json.dump(s, f, indent=1)
    return 1 if print_summary(s, allow) else 0


if __name__ == "__main__":
    sys.exit(main())
