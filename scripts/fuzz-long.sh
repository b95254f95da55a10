#!/usr/bin/env bash
# Long run of the kernel generator (test/Fuzz/run.py): N kernels of one seed,
# in chunks of 10,000, each chunk on JOBS parallel loopyc runs. Failures go
# to OUT/CLASS/kNNNNNNNN-STAGE/ (kernel.loop, cmd, stdout, stderr), each
# chunk's counts to OUT/summary-START.json; the totals by class are printed
# at the end (again at any time with `test/Fuzz/run.py --merge OUT`).
# A chunk whose summary exists is not run again, so a stopped run resumes
# where it was with the same command. Exit status 1 when any failure class
# not named in --allow (passed through) has a count.
#
# Usage: scripts/fuzz-long.sh [N [SEED [JOBS [OUT]]]] [run.py options...]
#   N     kernels (default 1000000)
#   SEED  generator seed (default 1)
#   JOBS  loopyc runs at once (default: the number of cores)
#   OUT   output folder (default fuzz-out-SEED)
# Environment: LOOPYC (default build/bin/loopyc), CHUNK (default 10000),
# NICE (default 10: the runs are niced), FIRST (default 0: the first
# kernel of the range), DOWN (1: the chunks from the last one down). Two
# machines can run one range from both ends, one with DOWN=1, and merge
# their folders' summaries; in a shared folder each skips the chunks whose
# summary the other has written.
# Example, the upper half from the top: FIRST=500000 DOWN=1 scripts/fuzz-long.sh 500000 1
# Example: scripts/fuzz-long.sh 1000000 42 16 /tmp/fuzz42 --cuda-fraction 0.2
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The leading arguments that are not options are N, SEED, JOBS and OUT.
pos=()
while [ $# -gt 0 ] && [ ${#pos[@]} -lt 4 ] && [[ $1 != -* ]]; do
  pos+=("$1")
  shift
done
n=${pos[0]:-1000000}
seed=${pos[1]:-1}
jobs=${pos[2]:-$(nproc)}
out=${pos[3]:-fuzz-out-$seed}
loopyc=${LOOPYC:-$root/build/bin/loopyc}
chunk=${CHUNK:-10000}
mkdir -p "$out"
echo "fuzz-long: $n kernels of seed $seed from ${FIRST:-0}, $jobs jobs, into $out"
first=${FIRST:-0}
end=$(( first + n ))
starts=$(seq "$first" "$chunk" $(( end - 1 )))
[ "${DOWN:-0}" = 1 ] && starts=$(printf '%s\n' $starts | sort -rn)
for start in $starts; do
  count=$(( end - start < chunk ? end - start : chunk ))
  if [ ! -f "$out/summary-$start.json" ]; then
    # A chunk with failures exits 1: the run goes on to the next one.
    nice -n "${NICE:-10}" python3 "$root/test/Fuzz/run.py" --loopyc "$loopyc" \
      --seed "$seed" --start "$start" --count "$count" --jobs "$jobs" \
      --out "$out" "$@" | tail -n 1 || true
  fi
done
python3 "$root/test/Fuzz/run.py" --merge "$out" "$@"
