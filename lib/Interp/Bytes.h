//===- Bytes.h - Typed loads and stores on raw buffers ----------*- C++ -*-===//
//
// Host buffers are raw bytes; elements are read and written through
// memcpy, which is free of alignment and aliasing pitfalls and compiles
// to a plain load or store.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_BYTES_H
#define LOOPY_LIB_INTERP_BYTES_H

#include "loopy/IR/Type.h"
#include "loopy/Support/Half.h"

#include <cstdint>
#include <cstring>

namespace loopy::interp {

template <class T> T loadAs(const unsigned char *P) {
  T X;
  std::memcpy(&X, P, sizeof X);
  return X;
}

template <class T> void storeAs(unsigned char *P, T X) {
  std::memcpy(P, &X, sizeof X);
}

/// The float element of type \p T (f16, bf16, f32 or f64) at \p P,
/// widened to double.
inline double loadFloat(const unsigned char *P, DType T) {
  switch (T) {
  case DType::F16:
    return f16ToFloat(loadAs<uint16_t>(P));
  case DType::BF16:
    return bf16ToFloat(loadAs<uint16_t>(P));
  case DType::F32:
    return loadAs<float>(P);
  default:
    return loadAs<double>(P);
  }
}

/// \p V rounded to the float type \p T and stored at \p P.
inline void storeFloat(unsigned char *P, DType T, double V) {
  switch (T) {
  case DType::F16:
    storeAs(P, floatToF16(static_cast<float>(V)));
    break;
  case DType::BF16:
    storeAs(P, floatToBf16(static_cast<float>(V)));
    break;
  case DType::F32:
    storeAs(P, static_cast<float>(V));
    break;
  default:
    storeAs(P, V);
  }
}

// Integers are little-endian, as on every host the project runs on
// (HostArray::bits reads an element's bytes the same way): an element of
// N bytes is the low N bytes of the int64.

/// The integer element of type \p T at \p P, sign- or zero-extended.
inline int64_t loadInt(const unsigned char *P, DType T) {
  int64_t V = 0;
  std::memcpy(&V, P, dtypeSize(T));
  return wrapInt(T, V);
}

/// \p V wrapped to the integer type \p T (modulo 2^bits) and stored at
/// \p P.
inline void storeInt(unsigned char *P, DType T, int64_t V) {
  std::memcpy(P, &V, dtypeSize(T));
}

} // namespace loopy::interp

#endif
