#!/bin/bash
# Dumps loopyc's --emit=ir and --emit=cuda --all-variants output (at symbolic sizes and
# with every index parameter fixed by -D to 77) for every examples/*.loop and
# test/**/*.loop into a folder, so that two builds can be compared with `diff -r`.
#
#   scripts/dump-outputs.sh LOOPYC OUTDIR
set -u
LOOPYC=${1:?usage: dump-outputs.sh LOOPYC OUTDIR}
OUT=${2:?usage: dump-outputs.sh LOOPYC OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
cd "$ROOT"
for F in examples/*.loop $(find test -name '*.loop' | sort); do
  Name=$(echo "$F" | tr '/' '_')
  run() {
    local Tag=$1; shift
    timeout 300 "$LOOPYC" "$F" "$@" >"$OUT/$Name.$Tag" 2>&1
    echo "exit $?" >>"$OUT/$Name.$Tag"
  }
  run ir --emit=ir
  run cuda --emit=cuda --all-variants
  Defs=()
  for P in $("$LOOPYC" "$F" --emit=ir 2>/dev/null | sed -n 's/^  params: //p' | tr ' ' '\n' | sort -u); do
    Defs+=(-D "$P=77")
  done
  if [ ${#Defs[@]} -gt 0 ]; then
    run ir77 --emit=ir "${Defs[@]}"
    run cuda77 --emit=cuda --all-variants "${Defs[@]}"
  fi
done
