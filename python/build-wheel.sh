#!/usr/bin/env bash
# Builds a wheel of the Python module for the interpreter PYTHON (another
# version than the one CI tests with, for a GPU machine): installs the
# build BUILD into BUILD/python-wheel/prefix, makes a virtual environment
# of PYTHON with nanobind and scikit-build-core (from PyPI) and runs
# `pip wheel` against the installed build. With Python 3.12 or later the
# wheel uses the stable ABI (cp312-abi3): one wheel for 3.12, 3.13, ...
#
#   python/build-wheel.sh BUILD PYTHON OUT_DIR
#
# e.g. python/build-wheel.sh build ~/.pyenv/versions/3.12.1/bin/python3.12 dist
# (`uv python install 3.12` or pyenv give a 3.12 interpreter).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
python="$2"
out="$(realpath -m "$3")"
work="$build/python-wheel"
mkdir -p "$work" "$out"
for c in dev tools; do
  cmake --install "$build" --prefix "$work/prefix" --component $c >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; exit 1; }
done
ver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')"
venv="$work/venv$ver"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "nanobind>=2.0" "scikit-build-core>=0.10" wheel
"$venv/bin/python" -m pip wheel --no-build-isolation --no-deps -q \
  --disable-pip-version-check -w "$out" \
  -C build-dir="$work/build$ver" \
  -C cmake.define.Loopy_DIR="$work/prefix/lib/cmake/Loopy" \
  "$here"
ls -l "$out"/loopyc-*.whl
