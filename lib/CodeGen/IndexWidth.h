//===- IndexWidth.h - Whether index arithmetic fits 32 bits -----*- C++ -*-===//
//
// The index-width step of lowering: indexFitsIn32Bits decides from the
// statement alone (its domain, the arrays' shapes and the sizes fixed at
// compile time) whether the code may count and address in `int`.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_INDEXWIDTH_H
#define LOOPY_LIB_CODEGEN_INDEXWIDTH_H

#include "loopy/IR/Kernel.h"

namespace loopy {

/// True where every parameter of \p K is fixed and isl bounds every index
/// of \p S and every array's largest element offset well below 2^31.
bool indexFitsIn32Bits(const Kernel &K, const Statement &S);

} // namespace loopy

#endif
