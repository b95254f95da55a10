//===- Fill.cpp - Deterministic inputs and poisoned outputs ---------------===//
#include "loopy/Interp/Fill.h"

#include "Random.h"
#include "Threads.h"

#include <algorithm>
#include <thread>

namespace loopy {

using namespace interp;

namespace {

/// The random bits of element \p Offset of the argument whose stream
/// starts at \p Base: a hash, so each element is independent of the order
/// in which elements are filled.
uint64_t elementBits(uint64_t Base, uint64_t Offset) {
  return mix64(Base ^ mix64(Offset));
}

/// Uniform in [0.5, 1.5), with a random sign.
double randomFloat(uint64_t R) {
  double Mag = 0.5 + static_cast<double>(R >> 11) * 0x1.0p-53;
  return (R & 1) ? -Mag : Mag;
}

/// In [-4, -1] or [1, 4].
int64_t randomInt(uint64_t R) {
  int64_t Mag = 1 + static_cast<int64_t>((R >> 32) % 4);
  return (R & 1) ? -Mag : Mag;
}

uint64_t streamBase(uint64_t Seed, const std::string &Name) {
  return mix64(Seed ^ hashString(Name));
}

/// Runs \p F(Begin, End) over ranges that cover [0, N): on several threads
/// where N is large (each element's value is its own, whatever the range),
/// else on this one.
template <class Fn> void overRanges(size_t N, Fn F) {
  unsigned Threads = 1;
  if (N >= (size_t{1} << 22))
    Threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  onThreads(Threads,
            [&](unsigned T) { F(N * T / Threads, N * (T + 1) / Threads); });
}

} // namespace

uint64_t poisonBits(DType T) {
  switch (T) {
  case DType::F32:
    return 0x7fc0deadULL;
  case DType::F64:
    return 0x7ff8deadbeefdeadULL;
  case DType::I32:
    return 0x7fffdeadULL;
  case DType::F16:
    return 0x7eadULL; // a quiet NaN
  case DType::BF16:
    return 0x7fedULL; // a quiet NaN
  // The narrow integers have no value to spare: patterns a kernel is
  // unlikely to compute from the small inputs of fillRandom.
  case DType::I8:
    return 0x6dULL; // 109
  case DType::U8:
    return 0xadULL; // 173
  case DType::I16:
    return 0x7eadULL; // 32429
  case DType::U16:
    return 0xdeadULL; // 57005
  default:
    return 0x7fffdeadbeefdeadULL;
  }
}

void poisonArray(HostArray &A) {
  uint64_t Bits = poisonBits(A.type());
  overRanges(A.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      A.setBits(I, Bits);
  });
}

bool isPoison(const HostArray &A, size_t Offset) {
  return A.bits(Offset) == poisonBits(A.type());
}

void poison(const Kernel &K, HostData &D) {
  for (const Argument &A : K.Args)
    if (A.isArray() && A.Mode == ArgMode::Out)
      poisonArray(D.array(A.Name));
}

void fillRandom(const Kernel &K, HostData &D, uint64_t Seed) {
  for (const Argument &A : K.Args) {
    uint64_t Base = streamBase(Seed, A.Name);
    if (A.Kind == ArgKind::Scalar) {
      HostScalar &S = D.Scalars[A.Name];
      S.Type = A.Type;
      uint64_t R = elementBits(Base, 0);
      S.Float = roundToType(A.Type, randomFloat(R));
      S.Int = randomInt(R);
      continue;
    }
    if (!A.isArray())
      continue;
    HostArray &H = D.array(A.Name);
    if (A.Mode == ArgMode::Out) {
      poisonArray(H);
      continue;
    }
    bool Float = isFloat(H.type());
    overRanges(H.size(), [&](size_t Begin, size_t End) {
      for (size_t I = Begin; I < End; ++I) {
        uint64_t R = elementBits(Base, I);
        if (Float)
          H.setDouble(I, randomFloat(R));
        else
          H.setInt(I, randomInt(R));
      }
    });
  }
}

} // namespace loopy
