//===- ArrayChecker.h - The verdict on one output array ---------*- C++ -*-===//
//
// The element-by-element and relative L2 checks of Compare.h on one
// array, shared by the whole-array comparison and the comparison at
// sampled output points.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_ARRAYCHECKER_H
#define LOOPY_LIB_INTERP_ARRAYCHECKER_H

#include "loopy/Interp/Compare.h"

#include <string>
#include <vector>

namespace loopy::interp {

/// Compares \p Cand with \p Ref, buffers of argument \p Arg with the same
/// layout, over the elements flagged in \p Written (by buffer offset); \p R
/// is the longest reduction behind an element. Elements are named by their
/// subscripts, or by \p Names[offset] when given.
ArrayComparison checkArray(const Argument &Arg, const HostArray &Ref,
                           const HostArray &Cand,
                           const std::vector<bool> &Written, double R,
                           const CompareOptions &Opts,
                           const std::vector<std::string> *Names = nullptr);

} // namespace loopy::interp

#endif
