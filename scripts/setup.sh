#!/usr/bin/env bash
# Installs what loopyc needs from Debian's packages (only what is missing),
# then configures and builds it into build/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ make xz-utils python3 libcxxopts-dev nlohmann-json3-dev
          libsqlite3-dev libgtest-dev llvm-14-tools libclang-14-dev llvm-14-dev
          pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers pkgconf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# isl, built once from Debian's source with IMath (scripts/build-isl.sh).
scripts/build-isl.sh build-deps/isl

build_type="${LOOPY_BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
  -DLOOPY_ISL_ROOT="$PWD/build-deps/isl" >/dev/null
cmake --build build
