//===- IslUtil.h - isl helpers for lowering ---------------------*- C++ -*-===//
//
// Small utilities the lowering builds on: adding named parameters, affine
// constraints by coefficient, and printing isl AST expressions as C.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_ISLUTIL_H
#define LOOPY_SCHEDULE_ISLUTIL_H

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// A term of an affine constraint: Coef times dimension Pos of type T.
struct Term {
  isl_dim_type T;
  unsigned Pos;
  long Coef;
};

/// Adds sum(Terms) + Cst == 0 (Eq) or >= 0 to \p S.
isl::set addConstraint(isl::set S, const std::vector<Term> &Terms, long Cst,
                       bool Eq);
/// The same on a map (terms may use isl_dim_in and isl_dim_out).
isl::map addConstraint(isl::map M, const std::vector<Term> &Terms, long Cst,
                       bool Eq);

/// A parameter space with parameters named \p Names, in that order.
isl::space paramSpace(isl::ctx Ctx, const std::vector<std::string> &Names);

/// Position of parameter \p Name in \p S; asserts it exists.
unsigned paramPos(const isl::set &S, const std::string &Name);
unsigned paramPos(const isl::map &M, const std::string &Name);

/// Existentially quantifies (eliminates) the named parameters of \p S,
/// keeping them in its space.
isl::set eliminateParams(isl::set S, const std::vector<std::string> &Names);

/// Does output dimension \p OutDim (every one if negative) of the access
/// function \p Rel { S[...] -> A[...] } use input dimension \p InDim? Only
/// the function is looked at, not the domain it is restricted to.
bool accessUses(const isl::map &Rel, int OutDim, unsigned InDim);

/// The subscripts of the access \p Rel { S[...] -> A[...] } as one affine
/// function on the whole index space, where isl gives them as one piece;
/// nothing otherwise.
std::optional<isl::multi_aff> accessFunction(const isl::map &Rel);

/// The number of values of dimension \p Pos of \p D when they are 0 .. N-1
/// with N fixed, whatever the parameters (fixed sizes); nothing otherwise.
std::optional<long> fixedExtent(const isl::set &D, unsigned Pos);

/// C text of an isl AST expression. Floor division and min/max print as
/// calls of loopy_floord, loopy_min and loopy_max, which every generated
/// program defines.
std::string printAstExpr(const isl::ast_expr &E);

/// C text of \p PA, built with \p Build (which simplifies it under the
/// build's context).
std::string exprText(const isl::ast_build &Build, isl::pw_aff PA);

} // namespace loopy

#endif
