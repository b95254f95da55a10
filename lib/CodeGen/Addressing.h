//===- Addressing.h - Global array elements as C subscripts -----*- C++ -*-===//
//
// The addressing step of lowering: buildAddressing takes a mapped statement
// and produces, per array argument, the C text of each dimension's stride
// (row-major, column-major or the declared strides, sizes fixed with -D
// substituted), from which element() forms the flat subscript of a global
// element.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_ADDRESSING_H
#define LOOPY_LIB_CODEGEN_ADDRESSING_H

#include "loopy/Schedule/Mapping.h"

#include <string>
#include <vector>

namespace loopy {

struct Addressing {
  const Kernel *K = nullptr;
  /// Per argument, per dimension: the stride as C ("1" for unit).
  std::vector<std::vector<std::string>> Strides;

  /// The element of argument \p Arg at subscripts \p Sub (C text).
  std::string element(unsigned Arg, const std::vector<std::string> &Sub) const;
};

Addressing buildAddressing(const StatementMapping &M);

} // namespace loopy

#endif
