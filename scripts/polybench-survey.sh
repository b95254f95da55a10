#!/usr/bin/env bash
# Lifts every kernel of a PolyBench/C 4.2.1 tree with loopy-extract, each
# kernel function marked with '#pragma loopy kernel' and nothing else
# changed, and prints one line per kernel: how many kernels it lifted to,
# or the first error. The tree is the user's (PolyBench/C is not part of
# this project); nothing is fetched. The copies, their lifted .loop text
# and the full diagnostics go to OUT.
#
#   scripts/polybench-survey.sh POLYBENCH_DIR [OUT]   (default polybench-out)
#
# Compiler flags: PolyBench's own -DPOLYBENCH_USE_RESTRICT and
# -DPOLYBENCH_USE_C99_PROTO (arrays sized by the size arguments, which the
# loops run to); EXTRACT names the extractor (default build/bin/loopy-extract).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${1:?usage: scripts/polybench-survey.sh POLYBENCH_DIR [OUT]}" && pwd)
out=$(mkdir -p "${2:-polybench-out}" && cd "${2:-polybench-out}" && pwd)
extract=${EXTRACT:-$root/build/bin/loopy-extract}
[ -f "$src/utilities/polybench.h" ] || { echo "polybench-survey: no utilities/polybench.h in $src" >&2; exit 1; }
lifted=0 rejected=0
while read -r f; do
  name=$(basename "$f" .c)
  dir=$out/$name
  mkdir -p "$dir"
  # The pragma goes right before the kernel function's definition: before
  # its 'static' line where it has one.
  awk '{ l[NR] = $0 }
       END {
         for (i = 1; i <= NR; i++) {
           if ((l[i] ~ /^static[ \t]*$/ && l[i + 1] ~ /^void kernel_/) ||
               (l[i] ~ /^void kernel_/ && l[i - 1] !~ /^static[ \t]*$/))
             print "#pragma loopy kernel"
           print l[i]
         }
       }' "$src/$f" > "$dir/$name.c"
  cp "$src/$(dirname "$f")"/*.h "$dir/"
  if "$extract" "$dir/$name.c" -- -I "$src/utilities" -I "$dir" \
      -DPOLYBENCH_USE_RESTRICT -DPOLYBENCH_USE_C99_PROTO \
      > "$dir/lifted.loop" 2> "$dir/errors.txt"; then
    printf '%-16s lifted: %d kernels\n' "$name" "$(grep -c '^kernel ' "$dir/lifted.loop")"
    lifted=$((lifted + 1))
  else
    printf '%-16s rejected: %s\n' "$name" \
      "$(grep -m1 'error:' "$dir/errors.txt" | sed 's/^[^ ]*: error: //')"
    rejected=$((rejected + 1))
  fi
done < <(cd "$src" && find . -name '*.c' ! -path './utilities/*' \
           ! -name '*.orig.c' | sed 's|^\./||' | sort)
echo "polybench-survey: $lifted lifted, $rejected rejected; details in $out"
