//===- Half.cpp - 16-bit floating-point formats as bits -------------------===//
#include "loopy/Support/Half.h"

#include <cmath>
#include <cstring>

namespace loopy {

namespace {

uint32_t bitsOf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, sizeof U);
  return U;
}

float floatOf(uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof F);
  return F;
}

} // namespace

float f16ToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  if (Exp == 0x1f) // infinity or NaN, the payload kept
    return floatOf(Sign | 0x7f800000 | (Man << 13));
  if (Exp == 0) {
    // Zero or subnormal: Man * 2^-24, exact in float.
    float M = static_cast<float>(Man) * 0x1p-24f;
    return Sign ? -M : M;
  }
  return floatOf(Sign | ((Exp + 112) << 23) | (Man << 13));
}

uint16_t floatToF16(float F) {
  uint32_t U = bitsOf(F);
  uint16_t Sign = static_cast<uint16_t>((U >> 16) & 0x8000);
  uint32_t Abs = U & 0x7fffffff;
  if (Abs > 0x7f800000) // NaN: quiet, with the payload's top bits
    return Sign | 0x7e00 | static_cast<uint16_t>((Abs >> 13) & 0x1ff);
  if (Abs >= 0x477ff000) // rounds past 65504: infinity
    return Sign | 0x7c00;
  if (Abs < 0x38800000) {
    // Below 2^-14: a subnormal f16, Abs * 2^24 (exact) rounded to an
    // integer, to nearest even; 1024 is the least normal, as it should.
    float Scaled = floatOf(Abs) * 0x1p24f;
    return Sign | static_cast<uint16_t>(std::nearbyint(Scaled));
  }
  // Normal: drop 13 mantissa bits, rounding to nearest even; a carry
  // into the exponent is the right result.
  uint32_t Rounded = Abs + 0xfff + ((Abs >> 13) & 1);
  return Sign | static_cast<uint16_t>((Rounded >> 13) - (112 << 10));
}

float bf16ToFloat(uint16_t H) { return floatOf(static_cast<uint32_t>(H) << 16); }

uint16_t floatToBf16(float F) {
  uint32_t U = bitsOf(F);
  if ((U & 0x7fffffff) > 0x7f800000) // NaN: quiet
    return static_cast<uint16_t>((U >> 16) | 0x40);
  return static_cast<uint16_t>((U + 0x7fff + ((U >> 16) & 1)) >> 16);
}

} // namespace loopy
