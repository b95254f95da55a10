//===- MergeIndices.h - Indices that always travel together, as one -*- C++ -*-===//
//
// A tensor contraction written with several indices per operand,
//
//   z[a, b, c, d] = sum((e, f), x[a, b, e, f] * y[e, f, c, d]),
//
// is a matrix product of (a, b) rows by (c, d) columns over (e, f): each
// pair occurs only as the two adjacent subscripts of a row-major array, so
// that every address depends on it through nb * a + b alone. Merging such a
// pair into one index t = nb * a + b (and the two array dimensions it
// subscripts into one) gives an equivalent kernel with fewer, longer
// indices, which the schedule space maps like any matrix product: both
// operands staged in tiles, wide register tiles, no short inner extents.
//
// mergeIndices finds every such pair, repeatedly (so that a, b and c merge
// into one index where all three travel together), and builds the merged
// kernel in the same isl context. The merged kernel addresses the same
// memory as the original for the same arguments: arrays keep their names,
// kinds and order, and only their shapes are folded. It is a view for the
// planner and the lowering; checks, interpretation and hashing keep to the
// original.
//
// A pair (p, q), p the slower, merges when, for fixed extents Np and Nq:
//  - the kernel domain is a box in (p, q): p takes the values 0 .. Np - 1
//    and q the values 0 .. Nq - 1 whatever the other indices are;
//  - every statement runs over both or neither, as outputs or as
//    reductions alike, and uses neither as a value;
//  - every subscript, once the dimensions an access indexes p and q with
//    are folded into one (adjacent, the faster of extent Nq), uses p and q
//    only as c * (Nq * p + q).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_MERGEINDICES_H
#define LOOPY_SCHEDULE_MERGEINDICES_H

#include "loopy/IR/Kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace loopy {

struct MergedKernel {
  Kernel K;
  /// Per merged index of K, the original indices' names, slowest first.
  std::vector<std::vector<std::string>> Groups;
  /// "merge(a,b) merge(c,d)": the prefix of the merged kernel's variant
  /// names.
  std::string Tag;
};

/// \p K with every pair of indices that travels together merged into one,
/// or nothing when no pair does.
std::optional<MergedKernel> mergeIndices(const Kernel &K);

/// A deep copy of \p K in the same isl context.
Kernel cloneKernel(const Kernel &K);

/// A deep copy of \p E.
ExprPtr cloneExpr(const Expr &E);

} // namespace loopy

#endif
