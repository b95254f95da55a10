//===- Fusion.h - Statements that run as one kernel function ----*- C++ -*-===//
//
// Statements of one kernel that run over the same output space can run in
// one kernel function: one grid, one block tile, one reduction strategy,
// the reads they share staged once, each statement's results in its own
// registers. For
//
//   ur[e, i] = sum(j, dr[i, j] * u[e, j]);
//   us[e, i] = sum(j, ds[i, j] * u[e, j]);
//
// one pass over u serves both, where two kernel functions read it twice.
//
// fuseStatements builds a view of the kernel in which every group of
// statements that fuse is one statement: its domain, indices and first
// write are the group's first statement's, its further writes and
// right-hand sides are Statement::MoreOutputs, and its reads are the union
// of the group's, a read of the same array by the same access relation
// (after the statements' tuples are given one name) listed once. The view
// is for the planner and the lowering, like the merged kernel
// (MergeIndices.h); checks, interpretation and hashing keep to the
// original.
//
// Two statements fuse when isl finds, with both tuples given one name:
//  - the same indices, output indices and reduction indices (the same
//    positions among the kernel's indices), and equal domains;
//  - equal write relations up to the written array's name: each output
//    index in the same role in the written subscripts, so that one mapping
//    of the outputs onto blocks and threads serves both;
//  - neither reads or writes the array the other writes.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_FUSION_H
#define LOOPY_SCHEDULE_FUSION_H

#include "loopy/IR/Kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace loopy {

struct FusedKernel {
  Kernel K;
  /// Per statement of K, the positions of the original statements it runs.
  std::vector<std::vector<unsigned>> Groups;
  /// "fuse(S0,S1,S2)", a group of two or more statements each: the prefix
  /// of the fused view's variant names.
  std::string Tag;
};

/// Why statements \p A and \p B of \p K cannot run as one kernel function,
/// or "" where they can.
std::string fusionRefusal(const Kernel &K, const Statement &A,
                          const Statement &B);

/// \p K with every group of statements that fuse made one statement, or
/// nothing when no two statements fuse. A statement joins the first group
/// whose every statement it fuses with.
std::optional<FusedKernel> fuseStatements(const Kernel &K);

/// The number of writes of \p S: one, and one per further output.
inline unsigned outputCount(const Statement &S) {
  return 1 + S.MoreOutputs.size();
}
/// Write \p O of \p S (0: Write, then MoreOutputs) and its right-hand side.
inline const Access &outputWrite(const Statement &S, unsigned O) {
  return O ? S.MoreOutputs[O - 1].Write : S.Write;
}
inline const Expr &outputRhs(const Statement &S, unsigned O) {
  return O ? *S.MoreOutputs[O - 1].Rhs : *S.Rhs;
}

/// Per read of \p S (by position in S.Reads): whether it is read at every
/// point of the domain -- under a reduction, or anywhere in a statement
/// without one -- rather than once per output, after the reduction.
std::vector<bool> readsAtEveryPoint(const Statement &S);

} // namespace loopy

#endif
