//===- EmptyRanges.h - Writes where an inner loop is empty ----*- C++ -*-===//
//
// C runs a statement after an inner loop even where that loop runs zero
// times; a .loop statement runs over the projection of its kernel's
// domain, which has no point there. inferAssumptions keeps the two equal
// with an assumption on the parameters where one exists (`assume l > 0`
// for a sum over k < l). Where none does -- the loop is empty at some
// iterations for every value of the parameters, as PolyBench's symm's
// `for (k = 0; k < i; k++)` at row 0 -- the statement's write at those
// iterations becomes a kernel of its own, whose value is what C computes
// there: each reduction without terms.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_EMPTYRANGES_H
#define LOOPY_EXTRACT_EMPTYRANGES_H

#include "LiftedKernel.h"

#include <isl/cpp.h>

#include <optional>

namespace loopy::extract {

/// The kernel of the iterations of the loops around the statement
/// K.Stmts[\p Stmt] where a loop inside runs zero times, for every value
/// of the parameters: those loops, bounded to those iterations, and the
/// statement with each reduction replaced by what C leaves in its
/// accumulator there (0 for a sum, 1 for a product, the value it started
/// from for a max or min). isl finds the iterations and their bounds; the
/// kernel's domain is checked equal to them. Nullopt where there are no
/// such iterations, where an assumption can exclude them, or where the
/// iterations or the value have no .loop form (a max that started at
/// -INFINITY, bounds with a coefficient or a division); then
/// inferAssumptions reports the statement.
std::optional<LiftedKernel> emptyRangeKernel(const LiftedKernel &K,
                                             size_t Stmt, isl::ctx Ctx);

} // namespace loopy::extract

#endif
