//===- Hash.h - SHA-256 digests ---------------------------------*- C++ -*-===//
//
// SHA-256 (FIPS 180-4), the content hash behind the tuning database's kernel
// keys and the compile cache's entry names. Digests are written as 64
// lower-case hex digits.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_HASH_H
#define LOOPY_SUPPORT_HASH_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace loopy {

/// An incremental SHA-256: update() any number of times, then digest().
class Sha256 {
public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(std::string_view Data);
  void update(const void *Data, size_t Size);
  /// The digest of everything passed to update(). Ends the computation:
  /// update() and digest() may not be called again.
  Digest digest();

private:
  void compressBlock(const uint8_t *Block);

  std::array<uint32_t, 8> State;
  std::array<uint8_t, 64> Buffer;
  size_t Buffered = 0;
  uint64_t TotalBytes = 0;
  bool Finished = false;
};

/// \p Bytes as lower-case hex, two digits per byte.
std::string toHex(std::string_view Bytes);
std::string toHex(const Sha256::Digest &D);

/// The SHA-256 of \p Data as 64 lower-case hex digits.
std::string sha256Hex(std::string_view Data);

} // namespace loopy

#endif
