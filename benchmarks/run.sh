#!/usr/bin/env bash
# Runs every benchmark on the GPU of this machine and writes the table, the
# JSON and the chart into benchmarks/results/ (or OUTDIR).
#
#   benchmarks/run.sh [BUILD_DIR [OUTDIR]] [-- loopy-bench options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/benchmarks/results}"
shift $(( $# > 2 ? 2 : $# )) || true
[ "${1:-}" = "--" ] && shift
mkdir -p "$out"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
"$build/bin/loopy-bench" "$@" "$out" | tee "$out/table.txt"
