//===- IslUtil.cpp - isl helpers for lowering -----------------------------===//
#include "loopy/Schedule/IslUtil.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <cassert>

namespace loopy {

template <typename Add, typename T>
static T addConstraintImpl(T S, isl_space *Sp, const std::vector<Term> &Terms,
                           long Cst, bool Eq, Add AddFn) {
  isl_local_space *LS = isl_local_space_from_space(Sp);
  isl_constraint *C =
      Eq ? isl_equality_alloc(LS) : isl_inequality_alloc(LS);
  for (const Term &X : Terms) {
    isl_val *Old = isl_constraint_get_coefficient_val(C, X.T, X.Pos);
    long V = isl_val_get_num_si(Old) + X.Coef;
    isl_val_free(Old);
    C = isl_constraint_set_coefficient_si(C, X.T, X.Pos, V);
  }
  C = isl_constraint_set_constant_si(C, Cst);
  return AddFn(S, C);
}

isl::set addConstraint(isl::set S, const std::vector<Term> &Terms, long Cst,
                       bool Eq) {
  isl_space *Sp = isl_set_get_space(S.get());
  isl_set *R = addConstraintImpl(S.release(), Sp, Terms, Cst, Eq,
                                       isl_set_add_constraint);
  return isl::manage(R);
}

isl::map addConstraint(isl::map M, const std::vector<Term> &Terms, long Cst,
                       bool Eq) {
  isl_space *Sp = isl_map_get_space(M.get());
  isl_map *R = addConstraintImpl(M.release(), Sp, Terms, Cst, Eq,
                                       isl_map_add_constraint);
  return isl::manage(R);
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
  isl_pw_multi_aff *PMA = isl_pw_multi_aff_from_map(Rel.copy());
  struct Query {
    int OutDim;
    unsigned InDim;
    bool Uses = false;
  } Q{OutDim, InDim};
  isl_pw_multi_aff_foreach_piece(
      PMA,
      [](isl_set *Dom, isl_multi_aff *MA, void *User) -> isl_stat {
        auto *Q = static_cast<Query *>(User);
        int N = isl_multi_aff_dim(MA, isl_dim_out);
        for (int D = 0; D < N; ++D) {
          if (Q->OutDim >= 0 && D != Q->OutDim)
            continue;
          isl_aff *A = isl_multi_aff_get_aff(MA, D);
          Q->Uses |= isl_aff_involves_dims(A, isl_dim_in, Q->InDim, 1) ==
                     isl_bool_true;
          isl_aff_free(A);
        }
        isl_multi_aff_free(MA);
        isl_set_free(Dom);
        return isl_stat_ok;
      },
      &Q);
  isl_pw_multi_aff_free(PMA);
  return Q.Uses;
}

static int opPrecedence(isl_ast_expr *E) {
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

std::string printAstExpr(isl_ast_expr *E) {
  switch (isl_ast_expr_get_type(E)) {
  case isl_ast_expr_id: {
    isl_id *Id = isl_ast_expr_get_id(E);
    std::string S = isl_id_get_name(Id);
    isl_id_free(Id);
    return S;
  }
  case isl_ast_expr_int: {
    isl_val *V = isl_ast_expr_get_val(E);
    long X = isl_val_get_num_si(V);
    isl_val_free(V);
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
  std::vector<isl_ast_expr *> A;
  for (int I = 0; I < N; ++I)
    A.push_back(isl_ast_expr_get_op_arg(E, I));
  int P = opPrecedence(E);
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
  for (isl_ast_expr *X : A)
    isl_ast_expr_free(X);
  return R;
}

std::string exprText(isl_ast_build *Build, isl::pw_aff PA) {
  isl_ast_expr *E = isl_ast_build_expr_from_pw_aff(Build, PA.release());
  std::string S = printAstExpr(E);
  isl_ast_expr_free(E);
  return S;
}

} // namespace loopy
