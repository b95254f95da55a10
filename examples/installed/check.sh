#!/usr/bin/env bash
# Installs the build BUILD into BUILD/installed/prefix, then configures,
# builds and runs this project against it through find_package(Loopy), and
# its program once more through pkg-config (loopy.pc). Where nvcc is found,
# the project also builds a kernel module with loopy_add_kernels.
#
#   examples/installed/check.sh BUILD
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
work="$build/installed"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work.log" 2>&1 ||
  { cat "$work.log"; exit 1; }
for f in bin/loopyc libexec/loopy/loopy-worker lib/libloopy.a include/loopy/loopy.h \
         lib/cmake/Loopy/LoopyConfig.cmake lib/pkgconfig/loopy.pc; do
  [ -e "$work/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
cmake -S "$here" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix"
cmake --build "$work/build"
"$work/build/variants" 256
if [ -x "$work/build/dot-host" ]; then
  "$work/build/dot-host"
else
  echo "nvcc not found: the loopy_add_kernels module was not built"
fi

# The same program through pkg-config.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$here/variants.cpp" -o "$work/variants-pc" \
  $(pkg-config --cflags --libs loopy)
"$work/variants-pc" 100 | head -1
echo "installed package: OK"
