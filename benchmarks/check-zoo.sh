#!/usr/bin/env bash
# Runs sampled variants of every zoo kernel (benchmarks/zoo/*.loop) on PoCL
# and compares each with the reference interpreter, at the small odd sizes
# of the file's "# bench: check" line: once with the sizes as kernel
# arguments (--param) and once fixed at compile time (-D). Exits 1 if any
# variant is wrong or any file is rejected.
#
#   benchmarks/check-zoo.sh [LOOPYC [NAME...]]   (NAME: gemm for zoo/gemm.loop;
#                                               default: every file)
#
# LOOPY_ZOO_SAMPLE (default 2) is --sample: at least that many variants per
# kernel and mode, and always one of each reduction strategy and set of
# staged reads, which makes most of the about 800 variants run.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
loopyc=${1:-${LOOPYC:-$root/build/bin/loopyc}}
shift $(( $# > 0 ? 1 : 0 ))
files=("$root"/benchmarks/zoo/*.loop)
[ $# -gt 0 ] && files=("${@/#/$root/benchmarks/zoo/}") && files=("${files[@]/%/.loop}")
sample=${LOOPY_ZOO_SAMPLE:-2}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$root/build/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"

# Kernels that expose a compiler bug stay in the zoo but out of this check
# (the file in one mode: --param or -D) until it is fixed; each entry names
# the bug.
declare -A excluded=(
)

start=$SECONDS
passed=0 failed=0 checked=0
for f in "${files[@]}"; do
  name=$(basename "$f" .loop)
  sizes=$(sed -n 's/^# bench: check //p' "$f")
  if [ -z "$sizes" ]; then
    echo "check-zoo: $name: no '# bench: check' line"
    failed=$((failed + 1))
    continue
  fi
  checked=$((checked + 1))
  for mode in --param -D; do
    if [ -n "${excluded[$name $mode]:-}" ]; then
      echo "check-zoo: $name $mode: excluded: ${excluded[$name $mode]}"
      continue
    fi
    args=()
    for s in $sizes; do args+=("$mode" "$s"); done
    out=$("$loopyc" "$f" --check=opencl --sample="$sample" --every-strategy "${args[@]}" 2>&1)
    status=$?
    summary=$(printf '%s\n' "$out" | tail -n 1)
    if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
      passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
    else
      failed=$((failed + 1))
    fi
    [ "$status" -ne 0 ] && printf '%s\n' "$out" | grep -v '^PASS'
    echo "check-zoo: $name $mode $sizes: $summary (exit $status)"
    [ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
  done
done
echo "check-zoo: $checked files in $((SECONDS - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
