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

/// The float element of type \p T (f32 or f64) at \p P, widened to double.
inline double loadFloat(const unsigned char *P, DType T) {
  return T == DType::F32 ? loadAs<float>(P) : loadAs<double>(P);
}

/// The integer element of type \p T (i32 or i64) at \p P, sign-extended.
inline int64_t loadInt(const unsigned char *P, DType T) {
  return T == DType::I32 ? loadAs<int32_t>(P) : loadAs<int64_t>(P);
}

} // namespace loopy::interp

#endif
