//===- Distribute.h - The parts of a distributed loop nest ------*- C++ -*-===//
//
// A nest whose loop body holds several loops is lifted as one kernel per
// part (Targets.cpp splits it, each part under copies of the loops around
// it). Running the parts one after another is right when no dependence
// goes backwards between them: no iteration of a later part may access an
// element that an iteration of an earlier part accesses later in the C
// code, one of the two accesses being a write. isl decides it from the
// parts' domains and access relations.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_DISTRIBUTE_H
#define LOOPY_EXTRACT_DISTRIBUTE_H

#include "Diag.h"
#include "LiftedKernel.h"

#include <isl/cpp.h>

#include <vector>

namespace clang {
class ASTContext;
class ForStmt;
} // namespace clang

namespace loopy::extract {

/// One lifted part of a distributed nest: its kernel and the number of
/// loops it shares with the part before it (0 for the first).
struct DistributedPart {
  const LiftedKernel *K = nullptr;
  unsigned Shared = 0;
  std::vector<std::string> SharedNames;
  /// Split off the part before it by the lifter (Lifter::splitParts).
  bool SplitOff = false;
  /// The shared loops stay on the host (KernelRequest::HostShared), which
  /// runs every part once per iteration of them; SharedDown says which
  /// of them count down.
  bool HostShared = false;
  std::vector<bool> SharedDown;
};

/// Fuses each part of \p Kernels (the parts of one distributed nest,
/// lifted, in order) into the next one where the first sets each element
/// that the second updates, once, as in gemm's `C[i][j] *= beta` before
/// `C[i][j] += alpha * ...` over the same elements: the second part's
/// statement reads the old value of its own element only, and takes the
/// first part's value in its place (`C[i, j] * beta + sum(k, ...)`). isl
/// proves that the first part writes exactly the elements the second
/// writes, each in one iteration. Returns, for each kernel left, the
/// position of its first part in the original order.
std::vector<size_t> fuseParts(std::vector<LiftedKernel> &Kernels,
                              isl::ctx IslCtx);

/// Reports the first dependence that goes backwards between two of the
/// \p Parts (in order, with their shapes inferred), with the two
/// iterations that isl finds; throws LiftFailed if there is one.
/// For \p Parts whose shared loops stay on the host: reports the first
/// true dependence that those loops carry, a read in one of their
/// iterations of an element that a part writes in an earlier one, unless
/// a part before the reading one writes that element first in the same
/// iteration (a temporary, such as doitgen's `sum[p]`, that each
/// iteration sets before it reads it); throws LiftFailed if there is one.
void checkHostParts(const std::vector<DistributedPart> &Parts,
                    clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R);

/// The order in which the parts \p Parts of a nest split by statement
/// (lifted, in source order; see KernelRequest::StmtSplitLoops) may run
/// one after another: part P goes before part Q where an iteration of P
/// accesses an element before an iteration of Q accesses it in the C code
/// (one of them a write). isl finds those dependences from the parts'
/// domains and access relations, and the C order of two accesses from
/// the loops \p Loops around them, outermost first, and, in one
/// iteration of the loops around both, from their places in the source.
/// The parts are ordered topologically, in source order where the
/// dependences leave a choice. Where two parts depend on each other both
/// ways (a cycle), reports it and throws LiftFailed.
std::vector<size_t>
orderStatementParts(const std::vector<const LiftedKernel *> &Parts,
                    const std::vector<const clang::ForStmt *> &Loops,
                    const std::vector<std::string> &SharedNames,
                    clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R);

void checkDistribution(const std::vector<DistributedPart> &Parts,
                       clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R);

} // namespace loopy::extract

#endif
