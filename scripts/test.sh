#!/usr/bin/env bash
# Installs, builds, and runs every test (lit golden tests and unit tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
