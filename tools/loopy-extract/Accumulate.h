//===- Accumulate.h - Accumulations recognized as reductions ----*- C++ -*-===//
//
// A loop that updates a location in every iteration, as in `acc += e`,
// `c[i][j] = c[i][j] + e` or `m = max(m, e)`, leaves the location with its
// old value combined with a reduction over the loop's index: sum, prod,
// max or min.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_ACCUMULATE_H
#define LOOPY_EXTRACT_ACCUMULATE_H

#include "LExpr.h"

#include <optional>

namespace loopy::extract {

struct Accumulation {
  /// sum, prod, max or min.
  std::string Op;
  /// What one iteration contributes; free of the location's old value.
  LExprPtr Term;
  /// For sum: the terms were subtracted (`acc -= e`), so the location
  /// becomes old - sum(k, Term).
  bool Subtracted = false;
};

/// Matches \p End, the value of \p Loc after one iteration, against
/// old(Loc) + e, old(Loc) - e, old(Loc) * e, max(old(Loc), e) and
/// min(old(Loc), e), in any operand order; nullopt if it is none of them.
std::optional<Accumulation> matchAccumulation(const LExprPtr &End,
                                              const LocKey &Loc);

/// The value after the loop: \p Before combined with \p Reduced (a Reduce
/// node of A.Op), leaving out identities such as 0 + ... and max(-inf, ...).
LExprPtr combineAccumulation(const Accumulation &A, LExprPtr Before,
                             LExprPtr Reduced);

/// \p E with each `a * sum(k, x) + b * sum(k, y)` (or `-`, with or
/// without the factors) merged into `sum(k, a * x + b * y)` where a and b
/// do not use k: two values accumulated over one loop and combined, as in
/// gesummv's `y = alpha * tmp + beta * y`, make one reduction, since
/// .loop reduces over an index once per statement.
LExprPtr mergeSums(const LExprPtr &E);

} // namespace loopy::extract

#endif
