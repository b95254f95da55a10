#!/usr/bin/env bash
# GPU tests (ctest label "gpu"): tune several kernels on the GPU, check that a
# planted faulting variant and a planted hanging one are survived, that a
# variant wrong in a few elements is caught by the check on the GPU, that
# a search spreads over every GPU of the host, that the 8- and 16-bit
# integer types tune and verify, that the occupancy round's variants with
# launch bounds run, that variants with asynchronous copies verify, that
# variants on the tensor cores (mma) verify, also on partial tiles, that variants with more
# buffers per stage (async:N) verify, timed alone (--tune --variant), that
# variants with the same code are timed once, that a second tuning comes
# from the database, that an exported database merges into an empty one,
# that the API reads a tuning back in at most 0.1 s, and run the embedding
# example; given the Python module, tune and run matmul through it on CuPy
# and PyTorch arrays (python/tests/gpu_test.py).
# Exits 77 (skipped) where there is no GPU.
#
#   scripts/gpu-tests.sh BUILD_DIR [WHEEL_OR_MODULE_DIR]
#
# WHEEL_OR_MODULE_DIR is a wheel of the Python module (installed into a
# folder of the test's own) or a folder holding the package loopy/, put on
# PYTHONPATH;
# PYTHON names the interpreter (default python3). python/build-wheel.sh
# builds the wheel on another machine for the GPU machine's Python:
#   python/build-wheel.sh build ~/.pyenv/versions/3.12.1/bin/python3.12 dist
# gives dist/loopyc-0.1.0-cp312-abi3-linux_x86_64.whl, for Python 3.12 on.
set -uo pipefail
bin="${1:-build}/bin"
python_module="${2:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export LOOPY_TUNING_DB="$work/tuning.db" LOOPY_CACHE_DIR="$work/cache"
failed=0

probe="$("$bin/loopyc" "$root/examples/dot.loop" -D n=1024 --tune 2>&1 >/dev/null)"
if grep -q "needs a GPU" <<<"$probe"; then
  echo "gpu tests skipped: $probe"
  exit 77
fi

# tune_file NAME PATH CHECK ARGS...: PATH (under the source tree) tuned;
# the winner is printed, verified variants exist and the output has a
# line matching the grep pattern CHECK.
tune_file() {
  local name="$1" file="$2" check="$3"; shift 3
  local start=$SECONDS
  if "$bin/loopyc" "$root/$file" "$@" --tune --report=5 \
       >"$work/$name.out" 2>"$work/$name.err" &&
     grep -q "^// winner: " "$work/$name.out" &&
     grep -q "__global__" "$work/$name.out" &&
     grep -q "$check" "$work/$name.out"; then
    echo "PASS tune $name ($((SECONDS - start)) s): $(grep '^// time: ' "$work/$name.out")"
  else
    echo "FAIL tune $name"; cat "$work/$name.out" "$work/$name.err"; failed=1
  fi
}
# tune NAME FILE ARGS...: an example tuned.
tune() { local name="$1" file="$2"; shift 2; tune_file "$name" "examples/$file" "" "$@"; }

tune matmul matmul.loop -D n=2048 -D m=2048 -D l=2048 --budget=24
tune matvec matvec.loop -D n=8192 -D m=8192 --budget=24
tune dot dot.loop -D n=16777216 --budget=24
tune transpose transpose.loop -D n=4096 -D m=4096 --budget=24
tune tri_matvec tri_matvec.loop -D n=4000 --budget=24
tune matmul_params matmul.loop --all-params=1000 --budget=12

# mma_search NAME FILE ARGS...: a search whose variants on the tensor
# cores (mma.sync) verify on the GPU, none wrong, at least one timed.
mma_search() {
  local name="$1" file="$2"; shift 2
  if "$bin/loopyc" "$root/$file" "$@" --tune --budget=24 --retune --report=40 \
       >"$work/$name.out" 2>"$work/$name.err" &&
     grep -q ' ok  .* mma' "$work/$name.out" &&
     ! grep ' mma' "$work/$name.out" | grep -q ' \(wrong\|failed\) '; then
    echo "PASS tensor cores, $name: $(grep -c ' ok  .* mma' "$work/$name.out") mma variants verified and timed; $(grep '^// time: ' "$work/$name.out")"
  else
    echo "FAIL tensor cores, $name"; cat "$work/$name.out" "$work/$name.err"; failed=1
  fi
}
mma_search mma examples/matmul_bf16.loop -D n=1024 -D m=1024 -D l=1024
# Sizes that no tile divides, known only at run time: the stages hold
# zeros past the extents.
mma_search mma_partial_tiles examples/matmul_bf16.loop --param n=1001 --param m=999 --param l=1003
# A batch index on grid axis z, one product per block; an operator shared
# by the batch, whose product over (e, i) takes j on z.
mma_search mma_batch benchmarks/zoo/batched_gemm_bf16.loop -D ne=3000 -D np=64 -D m=48
mma_search mma_shared_operator benchmarks/zoo/batched_shared_bf16.loop -D ne=20000 -D np=35 -D m=35

# zoo NAME FILE ARGS...: a zoo kernel tuned, its search with no variant
# wrong. The triangles (diagonal blocks computing outputs they do not
# write, reduction tiles full per block) and the permuted contraction
# (outputs sharing z, reductions outside the tiles) run these mechanisms.
zoo() {
  local name="$1" file="$2"; shift 2
  tune_file "$name" "benchmarks/zoo/$file" "^// search: .*, 0 wrong" "$@"
}
zoo syrk syrk.loop -D n=1001 -D m=700 --budget=24
zoo trmm trmm.loop -D m=1001 -D n=700 --budget=24
zoo contract4_perm contract4_perm.loop -D na=24 -D nb=24 -D nc=24 -D nd=24 \
  -D ne=24 -D nf=24 --budget=24

# The 8- and 16-bit integer types: every operation wrapped to its type, a
# float cast saturated, the CUDA code against the interpreter and the
# candidates compared by their bits on the GPU.
if "$bin/loopyc" "$root/test/CodeGen/narrow-int-types.loop" --all-params=3000 \
     --tune --budget=12 --report=12 >"$work/narrow.out" 2>"$work/narrow.err" &&
   [ "$(grep -c '^// winner: ' "$work/narrow.out")" = 2 ] &&
   ! grep -q " wrong  " "$work/narrow.out"; then
  echo "PASS narrow integer types: $(grep '^// search: ' "$work/narrow.out" | cut -c1-120 | tr '\n' ' ')"
else
  echo "FAIL narrow integer types"; cat "$work/narrow.out" "$work/narrow.err"; failed=1
fi

# The occupancy round: matmul's fastest register-bound variants run again
# with launch bounds (minblocks:N); each such row is verified and timed or
# dropped for spilling, never wrong or failed.
"$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 \
  --tune --budget=24 --retune --report=40 >"$work/occupancy.out" 2>"$work/occupancy.err"
status=$?
if [ $status = 0 ] && grep -q "^// winner: " "$work/occupancy.out" &&
   ! grep "minblocks:" "$work/occupancy.out" | grep -q " \(wrong\|failed\) "; then
  echo "PASS occupancy round: $(grep -o '[0-9]* more with launch bounds' "$work/occupancy.out" || echo 'no register-bound variant'); $(grep -c ' ok  .*minblocks:' "$work/occupancy.out") timed; winner $(grep '^// winner: ' "$work/occupancy.out" | cut -c12-)"
else
  echo "FAIL occupancy round (exit $status)"; cat "$work/occupancy.out" "$work/occupancy.err"; failed=1
fi

# Asynchronous copies (pipelined async): at 2048^3 b's tiles go as 16-byte
# cp.async; at sizes of no whole vectors every staged element is a copy of
# 4 bytes, the last tile's partly skipped. Each such variant is verified:
# some time ok, none is wrong or failed.
"$bin/loopyc" "$root/examples/matmul.loop" -D n=1001 -D m=999 -D l=1003 \
  --tune --budget=24 --retune --report=40 >"$work/async.out" 2>"$work/async.err"
status=$?
if [ $status = 0 ] && grep -q ' ok  .* async' "$work/occupancy.out" &&
   grep -q ' ok  .* async' "$work/async.out" &&
   ! cat "$work/occupancy.out" "$work/async.out" | grep " async" | grep -q " \(wrong\|failed\) "; then
  echo "PASS async copies: $(cat "$work/occupancy.out" "$work/async.out" | grep -c ' ok  .* async') verified and timed"
else
  echo "FAIL async copies (exit $status)"; cat "$work/async.out" "$work/async.err"; grep async "$work/occupancy.out"; failed=1
fi

# More buffers per stage (async:N): the copies run N - 1 tiles ahead and
# each tile waits with the later tiles' groups in flight. Timed one at a
# time (--tune --variant, which stores nothing): 4-byte copies with partial
# tiles, 16-byte ones, and the tensor cores' stages, each verified.
one_variant() {
  local name="$1" file="$2" schedule="$3"; shift 3
  if "$bin/loopyc" "$root/examples/$file" "$@" --tune --variant="$schedule"        >"$work/$name.out" 2>"$work/$name.err" &&
     grep -qxF "// winner: $schedule" "$work/$name.out" &&
     grep -q "^// search: 1 of [0-9]* variants tried (--variant): 1 verified and timed, 0 wrong, 0 failed" "$work/$name.out" &&
     grep -q "^// not stored: --variant times one variant" "$work/$name.out"; then
    echo "PASS one variant $name: $(grep '^// time: ' "$work/$name.out")"
  else
    echo "FAIL one variant $name"; cat "$work/$name.out" "$work/$name.err"; failed=1
  fi
}
one_variant buffers3_odd matmul.loop \
  'i:g.y,t.y*8,ilp8 j:g.x,t.x*16,ilp4 k:seq*16 prefetch:a,b pipelined async:3' \
  -D n=1001 -D m=999 -D l=1003
one_variant buffers4_odd matmul.loop \
  'i:g.y,t.y*8,ilp8 j:g.x,t.x*16,ilp4 k:seq*8 prefetch:a,b pipelined async:4' \
  -D n=1001 -D m=999 -D l=1003
one_variant buffers3 matmul.loop \
  'i:g.y,t.y*8,ilp8 j:g.x,t.x*16,ilp4 k:seq*16 prefetch:a,b pipelined async:3' \
  -D n=2048 -D m=2048 -D l=2048
one_variant buffers4_mma matmul_bf16.loop \
  'i:g.y,t.y*8,ilp8s j:g.x,t.x*4,ilp8s2 k:seq*16 prefetch:a,b pipelined async:4 mma:2x4' \
  -D n=1024 -D m=1024 -D l=1040
# Tiles past the extents on the tensor cores: their stages hold zeros
# there, stored beside the asynchronous copies (rows of a multiple of 8
# elements) or by the loads through registers (odd rows).
one_variant mma_partial matmul_bf16.loop \
  'i:g.y,t.y*8,ilp8s j:g.x,t.x*4,ilp8s2 k:seq*32 prefetch:a,b pipelined async:3 mma:2x2' \
  -D n=1001 -D m=1000 -D l=1000
one_variant mma_partial_odd matmul_f64.loop \
  'i:g.y,t.y*8,ilp4s j:g.x,t.x*4,ilp8s2 k:seq*16 prefetch:a,b pipelined mma:2x2' \
  -D n=1001 -D m=999 -D l=1003
# The f64 instruction (sm_90; eight m8n8k4 before), its operands read
# element by element from rows of 4 plus a multiple of 8 elements.
one_variant mma_f64 matmul_f64.loop \
  'i:g.y,t.y*8,ilp4s j:g.x,t.x*4,ilp8s2 k:seq*32 prefetch:a,b pipelined async:3 mma:2x2' \
  -D n=1024 -D m=512 -D l=1056
# f32 products on tf32 operands (m16n8k8), checked with the tolerance of
# tf32; and a search that offers them (--allow-tf32), whose tf32 variants
# are verified like the others.
one_variant mma_tf32 matmul.loop \
  'i:g.y,t.y*8,ilp4s j:g.x,t.x*4,ilp8s2 k:seq*16 prefetch:a,b pipelined async:3 mma:2x2 tf32' \
  -D n=1024 -D m=512 -D l=1056
if "$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 --allow-tf32 \
     --tune --budget=24 --occupancy-tries=0 --report=64 >"$work/tf32.out" 2>"$work/tf32.err" &&
   grep -q "^//  *[0-9]*  .* ok  .* tf32$" "$work/tf32.out" &&
   grep -q "^// search: .* 0 wrong, 0 failed" "$work/tf32.out"; then
  echo "PASS tf32 search: $(grep -c ' ok  .* tf32$' "$work/tf32.out") tf32 variants verified and timed; $(grep '^// winner: ' "$work/tf32.out")"
else
  echo "FAIL tf32 search"; cat "$work/tf32.out" "$work/tf32.err"; failed=1
fi

# Candidates with a better-ranked one's code (conv2d's reduction chunks
# past its 3-wide window) are neither compiled nor timed again: the search
# line counts them and the report names the variant whose result they share.
# Nor do they count against the budget: 32 programs run (verified, wrong,
# failed or dropped) beside them.
if "$bin/loopyc" "$root/benchmarks/zoo/conv2d.loop" -D n=2048 -D m=2048 -D r=3 \
     --tune --budget=32 --occupancy-tries=0 --report=64 >"$work/conv2d.out" 2>"$work/conv2d.err" &&
   grep -q "^//       same code as " "$work/conv2d.out" &&
   grep -q "dropped, [1-9][0-9]* with the code of a better-ranked one" "$work/conv2d.out" &&
   [ "$(grep -o '[0-9]* verified and timed, [0-9]* wrong, [0-9]* failed, [0-9]* dropped' "$work/conv2d.out" |
        tr -cs '0-9' ' ' | awk '{print $1 + $2 + $3 + $4}')" = 32 ]; then
  echo "PASS same code shared: $(grep -o '[0-9]* with the code of a better-ranked one' "$work/conv2d.out")"
else
  echo "FAIL same code shared"; cat "$work/conv2d.out" "$work/conv2d.err"; failed=1
fi

# A database exported and merged into an empty one gives the same rows;
# loopyc reads the merged winner back from it.
if "$bin/loopyc" --db-export "$work/export.json" 2>/dev/null &&
   "$bin/loopyc" --db-merge "$work/export.json" --db="$work/merged.db" 2>/dev/null &&
   "$bin/loopyc" --db-export - --db="$work/merged.db" 2>/dev/null | cmp -s - "$work/export.json" &&
   LOOPY_TUNING_DB="$work/merged.db" "$bin/loopyc" "$root/examples/matmul.loop" \
     -D n=2048 -D m=2048 -D l=2048 --tune --budget=24 2>/dev/null |
     grep -q "^// from the tuning database"; then
  echo "PASS export and merge: $(grep -c '"kernel_hash"' "$work/export.json") rows"
else
  echo "FAIL export and merge"; failed=1
fi

# The second tuning of the same kernel comes from the database, fast: the
# winner of its last search (the occupancy round's, --retune), which within
# the timings' noise may differ from the first search's.
start=$(date +%s%N)
"$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 \
  --tune --budget=24 >"$work/again.out" 2>&1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if grep -q "from the tuning database" "$work/again.out" &&
   [ "$(grep '^// winner' "$work/again.out")" = "$(grep '^// winner' "$work/occupancy.out")" ]; then
  echo "PASS second tuning from the database in $ms ms"
else
  echo "FAIL second tuning"; cat "$work/again.out"; failed=1
fi

# The main command (no --emit) prints the tuned winner: the one stored
# last, read from the database, with one note on standard error.
"$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 \
  >"$work/default.out" 2>"$work/default.err"
if grep -q "^// from the tuning database" "$work/default.out" &&
   grep -q "^loopyc: note: printing the tuned winner on " "$work/default.err" &&
   [ "$(grep '^// winner' "$work/default.out")" = "$(grep '^// winner' "$work/occupancy.out")" ]; then
  echo "PASS main command: $(cat "$work/default.err")"
else
  echo "FAIL main command"; cat "$work/default.out" "$work/default.err"; failed=1
fi

# A faulting variant is recorded as failed; the search goes on.
for bug in fault hang; do
  "$bin/loopyc" "$root/examples/matmul.loop" -D n=512 -D m=512 -D l=512 \
    --tune --budget=6 --retune --plant=$bug --report=20 \
    >"$work/$bug.out" 2>"$work/$bug.err"
  status=$?
  want="CUDA_ERROR_ILLEGAL_ADDRESS"; [ $bug = hang ] && want="timed out"
  if [ $status = 0 ] && grep -q "^// winner: " "$work/$bug.out" &&
     grep -A1 "failed " "$work/$bug.out" | grep -q "$want"; then
    echo "PASS planted $bug: $(grep -A1 'failed ' "$work/$bug.out" | grep "$want" | head -1 | cut -c1-140)"
  else
    echo "FAIL planted $bug (exit $status)"; cat "$work/$bug.out" "$work/$bug.err"; failed=1
  fi
done

# A variant wrong in a few elements only (thread 0 of block 0 stores
# nothing), at a size checked at sampled points, is caught by the
# comparison with the first verified variant on the GPU.
"$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 \
  --tune --budget=6 --retune --plant=skip-thread-0 --report=20 \
  >"$work/thread0.out" 2>"$work/thread0.err"
status=$?
if [ $status = 0 ] && grep -q "^// winner: " "$work/thread0.out" &&
   grep -q "^//  *against the first verified variant" "$work/thread0.out"; then
  echo "PASS planted skip-thread-0: $(grep 'against the first verified variant' "$work/thread0.out" | head -1 | cut -c1-160)"
else
  echo "FAIL planted skip-thread-0 (exit $status)"; cat "$work/thread0.out" "$work/thread0.err"; failed=1
fi

# The same in the fourth variant run: its outputs start from the poisoned
# copy that the worker kept on the device (GpuWorker::restoresOutputs),
# not from the host, and the elements it leaves are still caught.
"$bin/loopyc" "$root/examples/matmul.loop" -D n=2048 -D m=2048 -D l=2048 \
  --tune --budget=6 --search=ranked --retune --plant=skip-thread-0@3 \
  --report=20 >"$work/thread0-4.out" 2>"$work/thread0-4.err"
status=$?
if [ $status = 0 ] && grep -q "^// winner: " "$work/thread0-4.out" &&
   grep -q "^//  *against the first verified variant" "$work/thread0-4.out"; then
  echo "PASS planted skip-thread-0@3: $(grep -B1 'against the first verified variant' "$work/thread0-4.out" | head -1 | cut -c1-160)"
else
  echo "FAIL planted skip-thread-0@3 (exit $status)"; cat "$work/thread0-4.out" "$work/thread0-4.err"; failed=1
fi

# A statement that reads an earlier one's output (here the mean of each
# row, a temporary) is checked at sampled points on the candidate's values
# of it, which the verifier lends to the check instead of copying: a
# search of such a chain finds no correct variant wrong, and one with its
# second variant's loops skipping their first iteration finds that one.
cat >"$work/chain.loop" <<'LOOP'
kernel variance(n, m: index; x: in f32[n, m], v: out f32[n]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < m }
  v[i] = sum(j, (x[i, j] - sum(k, x[i, k]) / f32(m)) *
                (x[i, j] - sum(k, x[i, k]) / f32(m))) / f32(m);
}
LOOP
for plant in none skip-first-iteration@1; do
  args=(); want="0 wrong"
  [ $plant != none ] && { args=(--plant=$plant); want="1 wrong"; }
  "$bin/loopyc" "$work/chain.loop" -D n=16384 -D m=1024 --tune --budget=4 \
    --verify=sampled --search=ranked --retune "${args[@]}" --report=20 \
    >"$work/chain-$plant.out" 2>"$work/chain-$plant.err"
  status=$?
  if [ $status = 0 ] && grep -q "^// winner: " "$work/chain-$plant.out" &&
     grep -q "^// search: .*, $want" "$work/chain-$plant.out"; then
    echo "PASS chain, planted $plant: $(grep '^// search: ' "$work/chain-$plant.out" | cut -c1-100) $(grep -A1 ' wrong ' "$work/chain-$plant.out" | grep -v ' wrong ' | head -1 | cut -c1-120)"
  else
    echo "FAIL chain, planted $plant (exit $status)"; cat "$work/chain-$plant.out" "$work/chain-$plant.err"; failed=1
  fi
done

# On a host of several GPUs the search spreads over them: the same
# candidates, the winner timed again on the first GPU. The wall times of
# both searches are printed (the benchmark of tuning on two GPUs).
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${gpus:-0}" -ge 2 ]; then
  for g in 1 0; do
    "$bin/loopyc" "$root/examples/matmul.loop" -D n=4096 -D m=4096 -D l=4096 \
      --tune --retune --budget=128 --gpus=$g --db="$work/gpus$g.db" \
      >"$work/gpus$g.out" 2>"$work/gpus$g.err"
  done
  if grep -q "^// search: .*on $gpus GPUs" "$work/gpus0.out" &&
     grep -q "^// winner: " "$work/gpus1.out"; then
    echo "PASS tuning on $gpus GPUs: $(grep '^// search: ' "$work/gpus0.out")"
    echo "  one GPU: $(grep '^// search: ' "$work/gpus1.out")"
    echo "  winners: $(grep '^// time: ' "$work/gpus0.out") / $(grep '^// time: ' "$work/gpus1.out")"
  else
    echo "FAIL tuning on $gpus GPUs"; cat "$work/gpus0.out" "$work/gpus0.err"; failed=1
  fi
fi

# The embedding example tunes through the API and checks its result.
if "$bin/embed-matmul" 512 >"$work/embed.out" 2>&1 && grep -q "check: .* OK" "$work/embed.out"; then
  echo "PASS embed-matmul: $(grep check: "$work/embed.out")"
else
  echo "FAIL embed-matmul"; cat "$work/embed.out"; failed=1
fi
# A tuning read back through the API (loopy-bench's TunedKernel) loads the
# CUBIN stored with the winner: no lowering, no NVRTC, at most 0.1 s per
# row. The first run tunes (softmax has three kernels), the second reads;
# both with a wider search (--exhaustive=16, its own database) whose
# winners' times every row gives.
for run in first second; do
  "$bin/loopy-bench" --suite=zoo --only=gemm,softmax --quick --budget=8 \
    --exhaustive=16 --exhaustive-db="$work/wide.db" \
    --db="$work/bench.db" "$work/bench-$run" >"$work/bench-$run.out" 2>&1
done
if python3 - "$work/bench-second/results.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"]]
bad = [r for r in rows if not r["ok"] or not r["from_database"] or r["db_read_s"] > 0.1
       or not r["search_ms"] > 0 or not (r["exhaustive_ms"] or 0) > 0]
for r in rows:
    print(f"{r['kernel']}: read back in {r['db_read_s']} s; search {r['search_ms']} ms, "
          f"wider search {r['exhaustive_ms']} ms")
sys.exit(1 if bad or not rows else 0)
PY
then
  echo "PASS read back from the database: $(grep -o 'read from the database in [0-9.]* s' "$work/bench-second.out" | tr '\n' ' ')"
else
  echo "FAIL read back from the database"; cat "$work/bench-first.out" "$work/bench-second.out"; failed=1
fi

# The Python module: tuned and run on CuPy and PyTorch arrays, and read
# back from the database in at most 0.1 s.
if [ -n "$python_module" ]; then
  py="${PYTHON:-python3}"
  pypath=""
  if [ -f "$python_module" ]; then
    # Into a folder of its own, beside the interpreter's packages (CuPy,
    # PyTorch), which a virtual environment made from a virtual
    # environment's interpreter would not see.
    "$py" -m pip install -q --no-deps --no-index --disable-pip-version-check \
      --target "$work/site" "$python_module" || failed=1
    pypath="$work/site"
  else
    pypath="$(cd "$python_module" && pwd)"
  fi
  PYTHONPATH="$pypath${PYTHONPATH:+:$PYTHONPATH}" "$py" "$root/python/tests/gpu_test.py" \
    --size 1024 --budget 16 --db "$work/python.db" >"$work/python.out" 2>&1
  status=$?
  if [ $status = 0 ]; then
    echo "PASS python module: $(grep -c '^PASS' "$work/python.out") checks"
    grep '^PASS' "$work/python.out" | sed 's/^/  /'
  else
    echo "FAIL python module (exit $status)"; cat "$work/python.out"; failed=1
  fi
else
  echo "SKIP python module: no wheel or module folder given (second argument)"
fi
exit $failed
