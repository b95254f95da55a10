#!/usr/bin/env bash
# Compares the tuner's searches on the GPU, kernel by kernel of the zoo (at
# each file's first benchmark size): the winner's time and the search's
# wall time under --search=families and --search=learned at the default
# budget, against the best of --exhaustive (or a budget of 1000 where the
# space is larger). Every search retunes into a database of its own in
# OUTDIR; the learned one's grows kernel by kernel, so later kernels learn
# from earlier ones' timings, as a user's database would.
#
#   benchmarks/search-compare.sh BUILD_DIR OUTDIR [NAME...]
#
# NAMEs pick zoo files (ttm1 conv2d ...); none: all. A kernel already in
# OUTDIR/results.jsonl is skipped, so a run cut short by a time limit goes
# on where it stopped when called again with the same OUTDIR and build.
# Prints a table; OUTDIR/results.jsonl holds a JSON object per kernel.
set -uo pipefail
build="${1:?usage: search-compare.sh BUILD_DIR OUTDIR [NAME...]}"
out="${2:?usage: search-compare.sh BUILD_DIR OUTDIR [NAME...]}"
shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
loopyc="$build/bin/loopyc"
mkdir -p "$out"
export LOOPY_CACHE_DIR="$out/cache"
results="$out/results.jsonl"
touch "$results"

names=("$@")
if [ ${#names[@]} = 0 ]; then
  for f in "$root"/benchmarks/zoo/*.loop; do names+=("$(basename "$f" .loop)"); done
fi

# tune NAME SEARCH DB ARGS...: the JSON of one search, in $out/NAME.SEARCH.json.
tune() {
  local name="$1" search="$2" db="$3"; shift 3
  "$loopyc" "$root/benchmarks/zoo/$name.loop" "$@" --tune --retune \
    --db="$db" --format=json >"$out/$name.$search.json" 2>"$out/$name.$search.err"
}

for name in "${names[@]}"; do
  file="$root/benchmarks/zoo/$name.loop"
  [ -f "$file" ] || { echo "search-compare: no zoo file $name" >&2; exit 2; }
  if grep -q "\"kernel_file\": \"$name\"" "$results"; then
    continue
  fi
  # The first size's NAME=VALUE words, as -D options.
  defines=()
  for w in $(grep -m1 '^# bench: size' "$file" | sed 's/^# bench: size//'); do
    case "$w" in *=*) defines+=(-D "$w") ;; esac
  done
  variants=$("$loopyc" "$file" "${defines[@]}" --emit=variants 2>/dev/null | grep -c '^[0-9]')
  tune "$name" families "$out/families.db" "${defines[@]}" --search=families
  tune "$name" learned "$out/learned.db" "${defines[@]}" --search=learned
  if [ "$variants" -le 1000 ]; then
    tune "$name" best "$out/best.db" "${defines[@]}" --exhaustive
  else
    tune "$name" best "$out/best.db" "${defines[@]}" --budget=1000 --search=ranked
  fi
  python3 - "$out" "$name" "$variants" >>"$results" <<'EOF'
import json, sys
out, name, variants = sys.argv[1], sys.argv[2], int(sys.argv[3])
row = {"kernel_file": name, "variants": variants}
for search in ("families", "learned", "best"):
    try:
        with open(f"{out}/{name}.{search}.json") as f:
            runs = json.load(f)
        if not runs:
            with open(f"{out}/{name}.{search}.err") as f:
                raise ValueError(f.read().strip().splitlines()[0])
        # A file of several kernels: the sum of their winners' times.
        row[f"{search}_ms"] = sum(r["median_s"] for r in runs) * 1e3
        row[f"{search}_tuning_s"] = sum(r["tuning_s"] for r in runs)
    except (OSError, ValueError, KeyError) as e:
        row[f"{search}_error"] = str(e)
print(json.dumps(row))
EOF
done

python3 - "$results" <<'EOF'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'kernel':16} {'variants':>8} {'best ms':>10} {'families':>9} {'learned':>9} "
      f"{'fam s':>7} {'learn s':>7}")
ratios = {"families": [], "learned": []}
for r in rows:
    if "best_ms" not in r:
        print(f"{r['kernel_file']:16} failed: {r}")
        continue
    line = f"{r['kernel_file']:16} {r['variants']:8} {r['best_ms']:10.4f}"
    for s in ("families", "learned"):
        if f"{s}_ms" in r:
            q = r["best_ms"] / r[f"{s}_ms"]
            ratios[s].append(q)
            line += f" {q:9.3f}"
        else:
            line += f" {'-':>9}"
    for s in ("families", "learned"):
        line += f" {r.get(f'{s}_tuning_s', float('nan')):7.1f}"
    print(line)
for s, q in ratios.items():
    if q:
        g = math.exp(sum(map(math.log, q)) / len(q))
        print(f"{s}: geometric mean {g:.3f} of the best, lowest {min(q):.3f}, "
              f"{sum(x >= 0.95 for x in q)} of {len(q)} at 0.95 or more")
EOF
