#!/usr/bin/env bash
# Makes the virtual environment that builds and tests the Python module
# (python/): nanobind and scikit-build-core to build it, pytest to test it,
# from PyPI. The ctest entry "python" uses it. Safe to run again: pip
# installs only what is missing.
#
#   scripts/setup-python.sh [VENV]   (default build-deps/python-venv)
#
# PYTHON names the interpreter (default python3, 3.8 or later).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(realpath -m "${1:-build-deps/python-venv}")"
python="${PYTHON:-python3}"

# Debian's python3 keeps venv (ensurepip) and the headers that build a
# module in packages of their own.
if [ -z "${PYTHON:-}" ] && [ "$(command -v python3)" = /usr/bin/python3 ] &&
   command -v dpkg-query >/dev/null; then
  ver="$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
  missing=()
  for p in "python$ver-venv" python3-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "setup-python: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "nanobind>=2.0" "scikit-build-core>=0.10" "pytest>=7"
echo "setup-python: $("$venv/bin/python" --version) in $venv with" \
  "$("$venv/bin/python" -c 'import nanobind; print("nanobind", nanobind.__version__)')"
