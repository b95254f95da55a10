//===- IslUtil.cpp - isl helpers for lowering -----------------------------===//
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/constraint.h>
#include <isl/cpp.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <cassert>
#include <map>

namespace loopy {

/// The constraint sum(Terms) + Cst >= 0 (== 0 when \p Eq) in space \p Sp,
/// handed to the isl call that takes it. A term may name a dimension twice:
/// the coefficients add up.
static isl_constraint *makeConstraint(isl::space Sp,
                                      const std::vector<Term> &Terms, long Cst,
                                      bool Eq) {
  std::map<std::pair<int, unsigned>, long> Coef;
  for (const Term &X : Terms)
    Coef[{int(X.T), X.Pos}] += X.Coef;
  // The values go in as isl_vals: the _si setters take an int, and sizes,
  // origins and their products pass 2^31.
  isl_ctx *Ctx = Sp.ctx().get();
  isl_local_space *LS = isl_local_space_from_space(Sp.release());
  isl_constraint *C = Eq ? isl_equality_alloc(LS) : isl_inequality_alloc(LS);
  for (const auto &[Dim, V] : Coef)
    C = isl_constraint_set_coefficient_val(
        C, isl_dim_type(Dim.first), Dim.second, isl_val_int_from_si(Ctx, V));
  return isl_constraint_set_constant_val(C, isl_val_int_from_si(Ctx, Cst));
}

isl::set addConstraint(isl::set S, const std::vector<Term> &Terms, long Cst,
                       bool Eq) {
  isl_ctx *Ctx = S.ctx().get();
  isl_constraint *C = makeConstraint(S.space(), Terms, Cst, Eq);
  return take(Ctx, isl_set_add_constraint(S.release(), C));
}

isl::map addConstraint(isl::map M, const std::vector<Term> &Terms, long Cst,
                       bool Eq) {
  isl_ctx *Ctx = M.ctx().get();
  isl_constraint *C = makeConstraint(M.space(), Terms, Cst, Eq);
  return take(Ctx, isl_map_add_constraint(M.release(), C));
}

isl::space paramSpace(isl::ctx Ctx, const std::vector<std::string> &Names) {
  isl_space *S = isl_space_params_alloc(Ctx.get(), Names.size());
  for (unsigned I = 0; I < Names.size(); ++I)
    S = isl_space_set_dim_id(S, isl_dim_param, I,
                             isl_id_alloc(Ctx.get(), Names[I].c_str(), nullptr));
  return isl::manage(S);
}

unsigned paramPos(const isl::set &S, const std::string &Name) {
  int P = isl_set_find_dim_by_name(S.get(), isl_dim_param, Name.c_str());
  assert(P >= 0 && "parameter not in the set's space");
  return P;
}

unsigned paramPos(const isl::map &M, const std::string &Name) {
  int P = isl_map_find_dim_by_name(M.get(), isl_dim_param, Name.c_str());
  assert(P >= 0 && "parameter not in the map's space");
  return P;
}

isl::set eliminateParams(isl::set S, const std::vector<std::string> &Names) {
  for (const std::string &N : Names) {
    int P = isl_set_find_dim_by_name(S.get(), isl_dim_param, N.c_str());
    if (P >= 0)
      S = isl::manage(isl_set_eliminate(S.release(), isl_dim_param, P, 1));
  }
  return S;
}

bool accessUses(const isl::map &Rel, int OutDim, unsigned InDim) {
  bool Uses = false;
  isl::pw_multi_aff PMA =
      take(Rel.ctx(), isl_pw_multi_aff_from_map(Rel.copy()));
  PMA.foreach_piece([&](isl::set, isl::multi_aff MA) {
    unsigned N = MA.size();
    for (unsigned D = 0; D < N; ++D) {
      if (OutDim >= 0 && static_cast<int>(D) != OutDim)
        continue;
      isl::aff A = MA.at(D);
      Uses |= checkBool(A.ctx().get(),
                        isl_aff_involves_dims(A.get(), isl_dim_in, InDim, 1));
    }
  });
  return Uses;
}

std::optional<isl::multi_aff> accessFunction(const isl::map &Rel) {
  isl::pw_multi_aff PMA = take(Rel.ctx(), isl_pw_multi_aff_from_map(Rel.copy()));
  std::optional<isl::multi_aff> One;
  unsigned Pieces = 0;
  PMA.foreach_piece([&](isl::set, isl::multi_aff MA) {
    ++Pieces;
    One = MA;
  });
  if (Pieces != 1)
    return std::nullopt;
  return One;
}

std::optional<long> fixedExtent(const isl::set &D, unsigned Pos) {
  isl::val Min = D.dim_min_val(Pos), Max = D.dim_max_val(Pos);
  if (!Min.is_int() || !Max.is_int() || !Min.is_zero())
    return std::nullopt;
  return toLong(Max) + 1;
}

static int opPrecedence(const isl::ast_expr &Expr) {
  isl_ast_expr *E = Expr.get();
  if (isl_ast_expr_get_type(E) != isl_ast_expr_op)
    return 100;
  switch (isl_ast_expr_get_op_type(E)) {
  case isl_ast_expr_op_or:
  case isl_ast_expr_op_or_else:
    return 1;
  case isl_ast_expr_op_and:
  case isl_ast_expr_op_and_then:
    return 2;
  case isl_ast_expr_op_eq:
    return 3;
  case isl_ast_expr_op_le:
  case isl_ast_expr_op_lt:
  case isl_ast_expr_op_ge:
  case isl_ast_expr_op_gt:
    return 4;
  case isl_ast_expr_op_add:
  case isl_ast_expr_op_sub:
    return 5;
  case isl_ast_expr_op_mul:
  case isl_ast_expr_op_div:
  case isl_ast_expr_op_pdiv_q:
  case isl_ast_expr_op_pdiv_r:
  case isl_ast_expr_op_zdiv_r:
    return 6;
  case isl_ast_expr_op_minus:
    return 7;
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return 0;
  default:
    return 100; // calls
  }
}

std::string printAstExpr(const isl::ast_expr &Expr) {
  isl_ast_expr *E = Expr.get();
  isl_ctx *Ctx = Expr.ctx().get();
  switch (isl_ast_expr_get_type(E)) {
  case isl_ast_expr_id:
    return take(Ctx, isl_ast_expr_get_id(E)).name();
  case isl_ast_expr_int: {
    long X = toLong(take(Ctx, isl_ast_expr_get_val(E)));
    std::string S = std::to_string(X);
    if (X > 2147483647L || X < -2147483647L)
      S = "(idx)" + S;
    return S;
  }
  case isl_ast_expr_op:
    break;
  default:
    return "/*?*/";
  }
  int N = isl_ast_expr_get_op_n_arg(E);
  std::vector<isl::ast_expr> A;
  for (int I = 0; I < N; ++I)
    A.push_back(take(Ctx, isl_ast_expr_get_op_arg(E, I)));
  int P = opPrecedence(Expr);
  auto Arg = [&](int I, int MinPrec) {
    std::string S = printAstExpr(A[I]);
    return opPrecedence(A[I]) < MinPrec ? "(" + S + ")" : S;
  };
  auto Infix = [&](const char *Op, bool LeftAssoc = true) {
    return Arg(0, P) + " " + Op + " " + Arg(1, LeftAssoc ? P + 1 : P);
  };
  auto Nary = [&](const char *Fn) {
    std::string S = Arg(N - 1, 0);
    for (int I = N - 2; I >= 0; --I)
      S = std::string(Fn) + "(" + Arg(I, 0) + ", " + S + ")";
    return S;
  };
  std::string R;
  switch (isl_ast_expr_get_op_type(E)) {
  case isl_ast_expr_op_and:
  case isl_ast_expr_op_and_then:
    R = Infix("&&");
    break;
  case isl_ast_expr_op_or:
  case isl_ast_expr_op_or_else:
    R = Infix("||");
    break;
  case isl_ast_expr_op_max:
    R = Nary("loopy_max");
    break;
  case isl_ast_expr_op_min:
    R = Nary("loopy_min");
    break;
  case isl_ast_expr_op_minus:
    R = "-" + Arg(0, P + 1);
    break;
  case isl_ast_expr_op_add:
    R = Infix("+");
    break;
  case isl_ast_expr_op_sub:
    R = Infix("-");
    break;
  case isl_ast_expr_op_mul:
    R = Infix("*");
    break;
  case isl_ast_expr_op_div:
  case isl_ast_expr_op_pdiv_q:
    R = Infix("/");
    break;
  case isl_ast_expr_op_fdiv_q:
    R = "loopy_floord(" + Arg(0, 0) + ", " + Arg(1, 0) + ")";
    break;
  case isl_ast_expr_op_pdiv_r:
  case isl_ast_expr_op_zdiv_r:
    R = Infix("%");
    break;
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    R = Arg(0, 1) + " ? " + Arg(1, 1) + " : " + Arg(2, 1);
    break;
  case isl_ast_expr_op_eq:
    R = Infix("==");
    break;
  case isl_ast_expr_op_le:
    R = Infix("<=");
    break;
  case isl_ast_expr_op_lt:
    R = Infix("<");
    break;
  case isl_ast_expr_op_ge:
    R = Infix(">=");
    break;
  case isl_ast_expr_op_gt:
    R = Infix(">");
    break;
  case isl_ast_expr_op_call: {
    R = Arg(0, 100) + "(";
    for (int I = 1; I < N; ++I)
      R += (I > 1 ? ", " : "") + Arg(I, 0);
    R += ")";
    break;
  }
  default:
    R = "/*unsupported isl op*/";
  }
  return R;
}

std::string exprText(const isl::ast_build &Build, isl::pw_aff PA) {
  return printAstExpr(Build.expr_from(PA));
}

} // namespace loopy
