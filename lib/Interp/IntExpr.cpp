//===- IntExpr.cpp - Integer expressions from isl AST expressions ---------===//
#include "IntExpr.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/val.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace loopy::interp {

unsigned SlotMap::slot(const std::string &Name) const {
  auto It = Slots.find(Name);
  assert(It != Slots.end() && "isl expression names an unknown variable");
  if (It == Slots.end())
    throw std::logic_error("interpreter: no slot for '" + Name + "'");
  return It->second;
}

unsigned SlotMap::add(const std::string &Name) {
  Slots[Name] = Count;
  return Count++;
}

IntExpr IntExpr::constant(long V) {
  IntExpr E;
  E.Root.Value = V;
  E.Linear = true;
  E.Const = V;
  return E;
}

IntExpr IntExpr::slot(unsigned S) {
  IntExpr E;
  E.Root.O = Op::Slot;
  E.Root.Slot = S;
  E.Linear = true;
  E.Terms.push_back({1, S});
  return E;
}

IntExpr IntExpr::fromIsl(const isl::ast_expr &X, const SlotMap &Slots) {
  IntExpr E;
  E.Root = compile(X, Slots);
  E.Linear = E.flatten(E.Root, 1);
  if (!E.Linear) {
    E.Const = 0;
    E.Terms.clear();
  }
  return E;
}

IntExpr IntExpr::fromPwAff(const isl::pw_aff &PA, const isl::set &Context,
                           const SlotMap &Slots) {
  isl_ctx *Ctx = PA.ctx().get();
  isl::ast_build Build = isl::ast_build::from_context(Context);
  // A build from a context takes functions on the parameter space.
  isl::pw_aff OnParams =
      take(Ctx, isl_pw_aff_project_domain_on_params(PA.copy()));
  return fromIsl(Build.expr_from(OnParams), Slots);
}

IntExpr::Op IntExpr::opOf(isl_ast_expr_op_type T) {
  static const std::pair<isl_ast_expr_op_type, Op> Table[] = {
      {isl_ast_expr_op_and, Op::And},
      {isl_ast_expr_op_and_then, Op::And},
      {isl_ast_expr_op_or, Op::Or},
      {isl_ast_expr_op_or_else, Op::Or},
      {isl_ast_expr_op_max, Op::Max},
      {isl_ast_expr_op_min, Op::Min},
      {isl_ast_expr_op_minus, Op::Neg},
      {isl_ast_expr_op_add, Op::Add},
      {isl_ast_expr_op_sub, Op::Sub},
      {isl_ast_expr_op_mul, Op::Mul},
      {isl_ast_expr_op_div, Op::Div},    // exact
      {isl_ast_expr_op_pdiv_q, Op::Div}, // non-negative dividend
      {isl_ast_expr_op_fdiv_q, Op::FloorDiv},
      {isl_ast_expr_op_pdiv_r, Op::Rem}, // non-negative dividend
      {isl_ast_expr_op_zdiv_r, Op::Rem}, // only compared with zero
      {isl_ast_expr_op_cond, Op::Select},
      {isl_ast_expr_op_select, Op::Select},
      {isl_ast_expr_op_eq, Op::Eq},
      {isl_ast_expr_op_le, Op::Le},
      {isl_ast_expr_op_lt, Op::Lt},
      {isl_ast_expr_op_ge, Op::Ge},
      {isl_ast_expr_op_gt, Op::Gt},
  };
  for (const auto &[IslOp, O] : Table)
    if (IslOp == T)
      return O;
  throw std::logic_error("interpreter: unexpected isl AST operation");
}

IntExpr::Node IntExpr::compile(const isl::ast_expr &E, const SlotMap &Slots) {
  isl_ctx *Ctx = E.ctx().get();
  Node N;
  switch (isl_ast_expr_get_type(E.get())) {
  case isl_ast_expr_id: {
    isl::id Id = take(Ctx, isl_ast_expr_id_get_id(E.get()));
    N.O = Op::Slot;
    N.Slot = Slots.slot(Id.name());
    return N;
  }
  case isl_ast_expr_int:
    N.Value = toLong(take(Ctx, isl_ast_expr_int_get_val(E.get())));
    return N;
  case isl_ast_expr_op:
    break;
  default:
    throwLastError(Ctx); // isl_ast_expr_error
  }
  unsigned NArgs = checkSize(Ctx, isl_ast_expr_op_get_n_arg(E.get()));
  for (unsigned I = 0; I < NArgs; ++I)
    N.Args.push_back(
        compile(take(Ctx, isl_ast_expr_op_get_arg(E.get(), I)), Slots));
  N.O = opOf(isl_ast_expr_op_get_type(E.get()));
  return N;
}

static long floorDiv(long A, long B) {
  long Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

long IntExpr::evalNode(const Node &N, const long *Env) {
  auto A = [&](unsigned I) { return evalNode(N.Args[I], Env); };
  switch (N.O) {
  case Op::Const:
    return N.Value;
  case Op::Slot:
    return Env[N.Slot];
  case Op::Add:
    return A(0) + A(1);
  case Op::Sub:
    return A(0) - A(1);
  case Op::Mul:
    return A(0) * A(1);
  case Op::Neg:
    return -A(0);
  case Op::Div:
    return A(0) / A(1);
  case Op::FloorDiv:
    return floorDiv(A(0), A(1));
  case Op::Rem:
    return A(0) % A(1);
  case Op::Min:
  case Op::Max: {
    long V = A(0);
    for (unsigned I = 1; I < N.Args.size(); ++I)
      V = N.O == Op::Min ? std::min(V, A(I)) : std::max(V, A(I));
    return V;
  }
  case Op::Select:
    return A(0) ? A(1) : A(2);
  case Op::Eq:
    return A(0) == A(1);
  case Op::Le:
    return A(0) <= A(1);
  case Op::Lt:
    return A(0) < A(1);
  case Op::Ge:
    return A(0) >= A(1);
  case Op::Gt:
    return A(0) > A(1);
  case Op::And:
    return A(0) && A(1);
  case Op::Or:
    return A(0) || A(1);
  }
  return 0;
}

bool IntExpr::usesSlot(const Node &N, unsigned S) {
  if (N.O == Op::Slot)
    return N.Slot == S;
  for (const Node &X : N.Args)
    if (usesSlot(X, S))
      return true;
  return false;
}

bool IntExpr::usesSlot(unsigned S) const { return usesSlot(Root, S); }

bool IntExpr::flatten(const Node &N, long Scale) {
  switch (N.O) {
  case Op::Const:
    Const += Scale * N.Value;
    return true;
  case Op::Slot:
    for (Term &T : Terms)
      if (T.Slot == N.Slot) {
        T.Coef += Scale;
        return true;
      }
    Terms.push_back({Scale, N.Slot});
    return true;
  case Op::Add:
    return flatten(N.Args[0], Scale) && flatten(N.Args[1], Scale);
  case Op::Sub:
    return flatten(N.Args[0], Scale) && flatten(N.Args[1], -Scale);
  case Op::Neg:
    return flatten(N.Args[0], -Scale);
  case Op::Mul:
    if (N.Args[0].O == Op::Const)
      return flatten(N.Args[1], Scale * N.Args[0].Value);
    if (N.Args[1].O == Op::Const)
      return flatten(N.Args[0], Scale * N.Args[1].Value);
    return false;
  default:
    return false;
  }
}

} // namespace loopy::interp
