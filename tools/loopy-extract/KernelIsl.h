//===- KernelIsl.h - isl objects of a lifted kernel -------------*- C++ -*-===//
//
// The isl sets and maps that inferAssumptions and inferShapes build from a
// LiftedKernel, written as isl text over its parameters and indices.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_KERNELISL_H
#define LOOPY_EXTRACT_KERNELISL_H

#include "LiftedKernel.h"

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <vector>

namespace loopy::extract {

/// The constraints of the parameter set \p S as isl prints them, such as
/// "n > 0 and m >= n".
std::string constraintText(const isl::set &S);

/// { [indices] -> [E0, E1, ...] } over the kernel's parameters.
isl::map indexMap(const LiftedKernel &K, isl::ctx Ctx,
                  const std::vector<Poly> &Exprs);

/// The points of the kernel's domain where \p Constraint (isl text over
/// the indices and parameters) holds.
isl::set domainWhere(const LiftedKernel &K, isl::ctx Ctx,
                     const std::string &Constraint);

/// "i = 0, j = 1 with n = 1": a small point of \p S, whose dimensions are
/// named \p Names.
std::string witness(const isl::set &S, const std::vector<std::string> &Names);

/// Two iterations of the kernel's domain, different in the indices that
/// the subscripts use, where the access \p A made at the second meets the
/// element that the access \p W makes at the first: "i = 1", "i = 0" and
/// the parameters ("n = 2"); nullopt if there are none. \p W and \p A are
/// subscripts of one array, level by level, and must be affine for isl to
/// find the iterations (nullopt otherwise).
struct Conflict {
  std::string First, Second, Params;
};
std::optional<Conflict> findConflict(const LiftedKernel &K, isl::ctx Ctx,
                                     const std::vector<Poly> &W,
                                     const std::vector<Poly> &A);

} // namespace loopy::extract

#endif
