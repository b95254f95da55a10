#!/usr/bin/env bash
# The ctest entry "python": installs the build BUILD into
# BUILD/python/prefix, builds the Python module against it with pip into
# the virtual environment VENV (scripts/setup-python.sh makes it), and runs
# the tests of python/tests that need no GPU with pytest. The module's
# build folder (BUILD/python/build) is kept, so a second run compiles only
# what changed.
#
#   python/tests/run.sh BUILD VENV [PYTEST ARGS...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
venv="$(realpath -m "$2")"
shift 2
if [ ! -x "$venv/bin/python" ]; then
  echo "python: no virtual environment in $venv; run scripts/setup-python.sh" >&2
  exit 1
fi
work="$build/python"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" --component dev >"$work/install.log" 2>&1 &&
  cmake --install "$build" --prefix "$work/prefix" --component tools >>"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }
start=$SECONDS
"$venv/bin/python" -m pip install --no-build-isolation --no-deps --force-reinstall \
  --disable-pip-version-check -q \
  -C build-dir="$work/build" \
  -C cmake.define.Loopy_DIR="$work/prefix/lib/cmake/Loopy" \
  "$here/.." >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
echo "python: module built and installed in $((SECONDS - start)) s"
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" "$here"
