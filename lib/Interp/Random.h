//===- Random.h - A small deterministic generator ---------------*- C++ -*-===//
//
// SplitMix64: the same numbers on every platform and standard library, so
// test data and sampled points are reproducible from a seed alone (the
// distributions of <random> are not specified bit for bit).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_RANDOM_H
#define LOOPY_LIB_INTERP_RANDOM_H

#include <cstdint>
#include <string>

namespace loopy::interp {

/// The SplitMix64 output function: a well-mixed 64-bit hash of \p X.
inline uint64_t mix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ULL;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

/// A 64-bit hash of \p S (FNV-1a, then mixed).
inline uint64_t hashString(const std::string &S) {
  uint64_t H = 0xcbf29ce484222325ULL;
  for (unsigned char C : S)
    H = (H ^ C) * 0x100000001b3ULL;
  return mix64(H);
}

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t X = mix64(State);
    State += 0x9e3779b97f4a7c15ULL;
    return X;
  }
  /// Uniform in [0, N) for N > 0 (the bias is below 2^-32 for N < 2^32).
  uint64_t below(uint64_t N) { return next() % N; }

private:
  uint64_t State;
};

} // namespace loopy::interp

#endif
