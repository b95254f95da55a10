//===- CompareHost.cpp - The comparison of two buffers, on the host -------===//
#include "WorkerBackend.h"

#include "loopy/Support/Half.h"

#include <cmath>
#include <cstring>

namespace loopy::gpu {

unsigned elementBytes(ElementKind K) {
  switch (K) {
  case ElementKind::I8:
    return 1;
  case ElementKind::I16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  }
  return 0;
}

bool elementIsFloat(ElementKind K) {
  return K == ElementKind::F32 || K == ElementKind::F64 ||
         K == ElementKind::F16 || K == ElementKind::BF16;
}

namespace {

uint64_t bitsAt(const unsigned char *P, unsigned Bytes) {
  uint64_t B = 0;
  std::memcpy(&B, P, Bytes);
  return B;
}

double valueOf(uint64_t Bits, ElementKind K) {
  switch (K) {
  case ElementKind::F16:
    return f16ToFloat(static_cast<uint16_t>(Bits));
  case ElementKind::BF16:
    return bf16ToFloat(static_cast<uint16_t>(Bits));
  case ElementKind::F32: {
    float F;
    uint32_t U = static_cast<uint32_t>(Bits);
    std::memcpy(&F, &U, 4);
    return F;
  }
  default: {
    double D;
    std::memcpy(&D, &Bits, 8);
    return D;
  }
  }
}

} // namespace

CompareStats compareOnHost(const unsigned char *Candidate,
                           const unsigned char *Reference, uint64_t N,
                           const CompareSpec &Spec) {
  unsigned Bytes = elementBytes(Spec.Kind);
  bool Float = elementIsFloat(Spec.Kind);
  CompareStats S;
  // The sums first, for the root mean square of the reference.
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t R = bitsAt(Reference + I * Bytes, Bytes);
    uint64_t C = bitsAt(Candidate + I * Bytes, Bytes);
    if (R == Spec.PoisonBits)
      continue;
    ++S.Compared;
    if (!Float || C == Spec.PoisonBits)
      continue;
    double CV = valueOf(C, Spec.Kind), RV = valueOf(R, Spec.Kind);
    if (std::isfinite(CV) && std::isfinite(RV)) {
      S.Diff2 += (CV - RV) * (CV - RV);
      S.Ref2 += RV * RV;
    }
  }
  double Rms = S.Compared ? std::sqrt(S.Ref2 / double(S.Compared)) : 0;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t R = bitsAt(Reference + I * Bytes, Bytes);
    uint64_t C = bitsAt(Candidate + I * Bytes, Bytes);
    if (R == Spec.PoisonBits)
      continue;
    bool Bad;
    if (C == Spec.PoisonBits) {
      Bad = true;
    } else if (!Float) {
      Bad = C != R;
    } else {
      double CV = valueOf(C, Spec.Kind), RV = valueOf(R, Spec.Kind);
      if (!std::isfinite(CV) || !std::isfinite(RV))
        Bad = !((std::isnan(CV) && std::isnan(RV)) || CV == RV);
      else
        Bad = std::fabs(CV - RV) > 4 * Spec.Tolerance * (std::fabs(RV) + Rms);
    }
    if (Bad) {
      ++S.Bad;
      if (S.FirstBad == UINT64_MAX)
        S.FirstBad = I;
    }
  }
  return S;
}

} // namespace loopy::gpu
