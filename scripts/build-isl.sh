#!/usr/bin/env bash
# Builds the isl that loopyc links: Debian's isl source (0.25 in bookworm), configured with
# isl's own small-integer arithmetic (IMath with 32-bit small values) instead
# of GMP. isl spends most of its time on coefficients that fit in 32 bits;
# the GMP build allocates for each of them. Lowering every variant of a
# matrix product takes about a third less time with this build.
#
# The source comes through apt from Debian's archive with a private source
# list and state under the output folder: the machine's apt configuration is
# neither read for sources nor changed. apt checks the tarball against the
# archive's signed index.
#
# Usage: scripts/build-isl.sh [PREFIX]   (default build-deps/isl)
# Does nothing when PREFIX already holds the library.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="$(realpath -m "${1:-build-deps/isl}")"
if [ -f "$prefix/lib/libisl.a" ] && [ -f "$prefix/include/isl/cpp.h" ]; then
  exit 0
fi

work="$prefix.work"
rm -rf "$work"
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
  "http://deb.debian.org/debian bookworm main" >"$work/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list"
          -o "Dir::Etc::SourceParts=$work/none"
          -o "Dir::State::Lists=$work/lists"
          -o "Dir::Cache=$work/cache"
          -o "APT::Sandbox::User=$(id -un)")
echo "build-isl: fetching Debian's isl source"
apt-get "${apt_opts[@]}" -qq update
(cd "$work" && apt-get "${apt_opts[@]}" -qq source --download-only isl >/dev/null)
tarball=$(ls "$work"/isl_*.orig.tar.* 2>/dev/null | head -1)
if [ -z "$tarball" ]; then
  echo "build-isl: apt did not deliver isl's source tarball" >&2
  exit 1
fi
tar -C "$work" -xf "$tarball"
src=$(ls -d "$work"/isl-*/ | head -1)

echo "build-isl: building $(basename "$src") with IMath (takes a minute or two)"
(cd "$src" &&
  ./configure --prefix="$prefix" --with-int=imath-32 --disable-shared \
    --enable-static --with-pic CFLAGS="-O2" >"$work/configure.log" 2>&1 &&
  make -j "$(nproc)" >"$work/make.log" 2>&1 &&
  make install >"$work/install.log" 2>&1) || {
  echo "build-isl: the build failed; its logs are in $work" >&2
  exit 1
}
rm -rf "$work"
echo "build-isl: installed in $prefix"
