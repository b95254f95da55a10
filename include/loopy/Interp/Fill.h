//===- Fill.h - Deterministic inputs and poisoned outputs -------*- C++ -*-===//
//
// Test data for one run: inputs drawn from a seeded generator, never zero,
// so that a variant that drops or repeats a term changes the result; and
// outputs poisoned with a recognisable pattern, so that an element a
// variant never wrote is told apart from one it computed.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_INTERP_FILL_H
#define LOOPY_INTERP_FILL_H

#include "loopy/Interp/HostData.h"

#include <cstdint>

namespace loopy {

/// Fills every 'in' and 'inout' array (padding included) and every scalar
/// argument with random values and poisons every 'out' array. Floats are
/// uniform in [0.5, 1.5) with a random sign (f32 values rounded to f32);
/// integers are in [-4, -1] or [1, 4], so that products of two summed over
/// a reduction stay far inside i32. The values depend only on \p Seed, the
/// argument's name and the element's offset.
void fillRandom(const Kernel &K, HostData &D, uint64_t Seed);

/// Poisons every element of every 'out' array of \p K in \p D.
void poison(const Kernel &K, HostData &D);

/// Sets every element of \p A to the poison pattern of its type: quiet NaNs
/// with the payloads 0x7fc0dead (f32) and 0x7ff8deadbeefdead (f64), and the
/// integers 0x7fffdead (i32) and 0x7fffdeadbeefdead (i64).
void poisonArray(HostArray &A);

/// Whether the element at \p Offset of \p A has the poison pattern, bit for
/// bit. A kernel never reads an 'out' array, so no computed NaN carries
/// the payload over from a poisoned element.
bool isPoison(const HostArray &A, size_t Offset);
/// The bit pattern of the poison of an element of type \p T.
uint64_t poisonBits(DType T);

} // namespace loopy

#endif
