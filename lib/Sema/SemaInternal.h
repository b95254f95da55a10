//===- SemaInternal.h - Helpers shared by the Sema sources ------*- C++ -*-===//
#ifndef LOOPY_LIB_SEMA_SEMAINTERNAL_H
#define LOOPY_LIB_SEMA_SEMAINTERNAL_H

#include "loopy/Frontend/AST.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/cpp.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace loopy::sema {

/// Names usable in an affine expression and where they live in an isl space.
struct AffScope {
  /// A set space: the index parameters, and the domain indices (possibly none).
  isl::space Space;
  std::map<std::string, std::pair<isl_dim_type, unsigned>> Names;
  /// What the expression is, for messages: "subscript", "array extent".
  std::string What;
  /// Names that exist but may not appear (scalars, arrays): name -> reason.
  std::map<std::string, std::string> Forbidden;
};

/// Converts \p E to a quasi-affine function on \p Scope.Space: sums and
/// differences, products with integer constants, floor division and modulo by
/// positive constants. Reports an error and returns nullopt otherwise. Adds
/// the positions of set dimensions it uses to \p UsedDims.
std::optional<isl::aff> buildAff(const ast::Expr &E, const AffScope &Scope,
                                 DiagnosticEngine &Diags,
                                 std::set<unsigned> *UsedDims = nullptr);

/// Parses isl text found at \p Range of the source, after prefixing it with
/// \p Prefix (the parameter declaration "[n, m] -> "). Unknown identifiers
/// are reported at their exact location. \p Known lists the names that the
/// text may use besides those it declares itself.
std::optional<isl::set> parseIslText(isl::ctx Ctx, const SourceManager &SM,
                                     SourceRange Range,
                                     const std::string &Prefix,
                                     const std::string &Suffix,
                                     const std::set<std::string> &Known,
                                     const std::string &What,
                                     DiagnosticEngine &Diags);

/// The closest name in \p Candidates to \p Name, if one is close enough to
/// be a likely typo.
std::optional<std::string> closestName(const std::string &Name,
                                       const std::vector<std::string> &Candidates);

} // namespace loopy::sema

#endif
