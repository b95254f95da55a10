#!/usr/bin/env bash
# Runs sampled variants (200 per kernel, every reduction strategy and
# prefetch combination among them) of every example and test kernel on
# PoCL at two sizes, and compares each with the reference interpreter.
# Sizes are kernel arguments (--param), so the second size reuses PoCL's
# builds of the first.
set -euo pipefail
cd "$(dirname "$0")/.."
loopyc=${LOOPYC:-build/bin/loopyc}
sample=${LOOPY_CHECK_SAMPLE:-200}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
mkdir -p "$POCL_CACHE_DIR"

# The examples and the valid kernels of test/IR (those without an expected
# error); test/CodeGen and test/IR/matmul.loop repeat example kernels.
files=(examples/*.loop)
for f in test/IR/*.loop; do
  [ "$f" = test/IR/matmul.loop ] && continue
  grep -q "RUN: not" "$f" || files+=("$f")
done

start=$SECONDS
passed=0 failed=0
# Adds the summary line of one check (its output $1, exit status $2) to the
# counts, and prints what did not pass under the label $3.
tally() {
  local summary
  summary=$(printf '%s\n' "$1" | tail -n 1)
  if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  else
    failed=$((failed + 1))
  fi
  if [ "$2" -ne 0 ]; then
    printf '%s:\n%s\n' "$3" "$(printf '%s\n' "$1" | grep -v '^PASS')"
  fi
  echo "check-opencl: $3: $summary"
}
for f in "${files[@]}"; do
  for size in 37 100; do
    out=$("$loopyc" "$f" --check=opencl --all-params=$size --sample="$sample" --every-strategy 2>&1) && status=0 || status=$?
    if [[ $out == *"violate the assumptions"* ]]; then
      # A kernel that assumes sizes divisible by 16 runs at the nearest
      # multiples instead.
      size=$(( (size + 15) / 16 * 16 ))
      out=$("$loopyc" "$f" --check=opencl --all-params=$size --sample="$sample" --every-strategy 2>&1) && status=0 || status=$?
    fi
    tally "$out" "$status" "$f size $size"
  done
done
# Sizes fixed at compile time, rows a whole number of 16-byte vectors apart
# but not multiples of the tiles: staged loads read float4/double2 vectors
# (which symbolic sizes never do) next to partial tiles.
fixed=(
  "examples/matmul.loop -D n=77 -D m=48 -D l=52"
  "examples/matmul_f64.loop -D n=37 -D m=46 -D l=50"
  "examples/transpose.loop -D n=52 -D m=76"
)
for f in "${fixed[@]}"; do
  # shellcheck disable=SC2086
  out=$("$loopyc" $f --check=opencl --sample="$sample" --every-strategy 2>&1) && status=0 || status=$?
  tally "$out" "$status" "$f"
done
echo "check-opencl: $((SECONDS - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
