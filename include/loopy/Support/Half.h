//===- Half.h - 16-bit floating-point formats as bits -----------*- C++ -*-===//
//
// IEEE binary16 (f16) and bfloat16 (bf16) values are stored as their 16
// bits and computed in float: a value widens exactly, and a float result
// narrows with rounding to nearest, ties to even, as the GPU's conversion
// instructions do. The interpreter, the generated code (which spells the
// same conversions in CUDA and OpenCL) and the host's data share these
// definitions, so every backend rounds alike.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_HALF_H
#define LOOPY_SUPPORT_HALF_H

#include <cstdint>

namespace loopy {

/// The float that the f16 bits \p H stand for (exact).
float f16ToFloat(uint16_t H);
/// \p F rounded to the nearest f16 (ties to even): past 65504 it
/// overflows to infinity, below 2^-14 it is subnormal, NaN stays NaN.
uint16_t floatToF16(float F);

/// The float that the bf16 bits \p H stand for (exact).
float bf16ToFloat(uint16_t H);
/// \p F rounded to the nearest bf16 (ties to even); NaN stays NaN.
uint16_t floatToBf16(float F);

} // namespace loopy

#endif
