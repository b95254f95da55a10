//===- PragmaExpr.h - Expressions in #pragma loopy shape / assume -*- C++ -*-=//
//
// The extents of `#pragma loopy shape(a, n, 2 * m + 1)` and the constraints
// of `#pragma loopy assume(k <= m && n >= 1)`: affine expressions of integer
// variables and constants with +, - and multiplication, compared with <,
// <=, >, >=, ==, joined with &&.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_PRAGMAEXPR_H
#define LOOPY_EXTRACT_PRAGMAEXPR_H

#include "Poly.h"
#include "Pragmas.h"

#include <functional>
#include <optional>

namespace loopy::extract {

/// Resolves a variable name of a pragma to a polynomial (a parameter or a
/// constant); it reports and throws if the name is unknown.
using PragmaNameResolver = std::function<Poly(const PragmaToken &)>;

/// The affine expression of \p Tokens; nullopt if they are not one.
std::optional<Poly> parsePragmaAffine(const std::vector<PragmaToken> &Tokens,
                                      const PragmaNameResolver &Resolve);

/// One comparison `L OP R` of a constraint list.
struct PragmaComparison {
  Poly L;
  std::string Op;
  Poly R;
};

/// The comparisons of \p Tokens joined with &&; nullopt if they are not.
std::optional<std::vector<PragmaComparison>>
parsePragmaConstraints(const std::vector<PragmaToken> &Tokens,
                       const PragmaNameResolver &Resolve);

} // namespace loopy::extract

#endif
