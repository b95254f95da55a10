//===- LoopNest.cpp - Executable loops over an isl set --------------------===//
#include "LoopNest.h"

#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <cassert>
#include <stdexcept>

namespace loopy::interp {

LoopNest::LoopNest(const isl::set &S, const std::vector<unsigned> &DimSlots,
                   SlotMap &Slots) {
  isl_ctx *Ctx = S.ctx().get();
  unsigned Dims = isl_set_dim(S.get(), isl_dim_set);
  // Iterators get names no kernel index can have, so they never shadow
  // one of the set's parameters.
  isl_id_list *Iters = isl_id_list_alloc(Ctx, Dims);
  for (unsigned D = 0; D < Dims; ++D) {
    std::string Name = "it." + std::to_string(Slots.size());
    Slots.add(Name);
    Iters = isl_id_list_add(Iters, isl_id_alloc(Ctx, Name.c_str(), nullptr));
  }
  isl_set *Dom = S.copy();
  if (!isl_set_has_tuple_name(Dom))
    Dom = isl_set_set_tuple_name(Dom, "P");
  isl_map *Sched = isl_map_identity(
      isl_space_map_from_set(isl_set_get_space(Dom)));
  Sched = isl_map_intersect_domain(Sched, Dom);
  Sched = isl_map_reset_tuple_id(Sched, isl_dim_out);
  isl_ast_build *Build =
      isl_ast_build_from_context(isl_set_params(S.copy()));
  Build = isl_ast_build_set_iterators(Build, Iters);
  isl_ast_node *Root = isl_ast_build_node_from_schedule_map(
      Build, isl_union_map_from_map(Sched));
  isl_ast_build_free(Build);
  if (!Root)
    throw std::runtime_error("interpreter: isl could not build loops");
  compile(Root, DimSlots, Slots);
  isl_ast_node_free(Root);
}

void LoopNest::compileFor(isl_ast_node *N, Node &Out, const SlotMap &Slots) {
  isl_ast_expr *Iter = isl_ast_node_for_get_iterator(N);
  isl_id *Id = isl_ast_expr_id_get_id(Iter);
  Out.Slot = Slots.slot(isl_id_get_name(Id));
  isl_id_free(Id);
  isl_ast_expr_free(Iter);

  isl_ast_expr *Init = isl_ast_node_for_get_init(N);
  isl_ast_expr *Cond = isl_ast_node_for_get_cond(N);
  isl_ast_expr *Inc = isl_ast_node_for_get_inc(N);
  Out.Init = IntExpr::fromIsl(Init, Slots);
  Out.Inc = IntExpr::fromIsl(Inc, Slots);
  Out.Cond = IntExpr::fromIsl(Cond, Slots);
  // "it <= e" or "it < e" with e free of it: evaluate e once per loop.
  isl_ast_expr_op_type Op = isl_ast_expr_op_get_type(Cond);
  if (Op == isl_ast_expr_op_le || Op == isl_ast_expr_op_lt) {
    isl_ast_expr *L = isl_ast_expr_op_get_arg(Cond, 0);
    isl_ast_expr *R = isl_ast_expr_op_get_arg(Cond, 1);
    IntExpr Left = IntExpr::fromIsl(L, Slots);
    IntExpr Bound = IntExpr::fromIsl(R, Slots);
    if (isl_ast_expr_get_type(L) == isl_ast_expr_id &&
        Left.usesSlot(Out.Slot) && !Bound.usesSlot(Out.Slot)) {
      if (Op == isl_ast_expr_op_lt) {
        isl_ast_expr *One = isl_ast_expr_from_val(
            isl_val_one(isl_ast_expr_get_ctx(R)));
        R = isl_ast_expr_sub(R, One);
        Bound = IntExpr::fromIsl(R, Slots);
      }
      Out.Cond = Bound;
      Out.HasUpper = true;
    }
    isl_ast_expr_free(L);
    isl_ast_expr_free(R);
  }
  isl_ast_expr_free(Init);
  isl_ast_expr_free(Cond);
  isl_ast_expr_free(Inc);
}

unsigned LoopNest::compileOwned(isl_ast_node *N,
                                const std::vector<unsigned> &DimSlots,
                                const SlotMap &Slots) {
  unsigned I = compile(N, DimSlots, Slots);
  isl_ast_node_free(N);
  return I;
}

unsigned LoopNest::compile(isl_ast_node *N,
                           const std::vector<unsigned> &DimSlots,
                           const SlotMap &Slots) {
  unsigned Me = Nodes.size();
  Nodes.emplace_back();
  Node Out;
  switch (isl_ast_node_get_type(N)) {
  case isl_ast_node_for: {
    Out.K = Kind::For;
    compileFor(N, Out, Slots);
    Out.Kids.push_back(
        compileOwned(isl_ast_node_for_get_body(N), DimSlots, Slots));
    Out.Uniform = !controlUses(Out.Kids[0], Out.Slot);
    break;
  }
  case isl_ast_node_if: {
    Out.K = Kind::If;
    isl_ast_expr *Cond = isl_ast_node_if_get_cond(N);
    Out.Cond = IntExpr::fromIsl(Cond, Slots);
    isl_ast_expr_free(Cond);
    Out.Kids.push_back(
        compileOwned(isl_ast_node_if_get_then_node(N), DimSlots, Slots));
    if (isl_ast_node_if_has_else_node(N) == isl_bool_true) {
      Out.Kids.push_back(
          compileOwned(isl_ast_node_if_get_else_node(N), DimSlots, Slots));
      Out.HasElse = true;
    }
    break;
  }
  case isl_ast_node_block: {
    Out.K = Kind::Block;
    isl_ast_node_list *L = isl_ast_node_block_get_children(N);
    int Count = isl_ast_node_list_n_ast_node(L);
    for (int I = 0; I < Count; ++I)
      Out.Kids.push_back(
          compileOwned(isl_ast_node_list_get_at(L, I), DimSlots, Slots));
    isl_ast_node_list_free(L);
    break;
  }
  case isl_ast_node_mark:
    Out.K = Kind::Block;
    Out.Kids.push_back(
        compileOwned(isl_ast_node_mark_get_node(N), DimSlots, Slots));
    break;
  case isl_ast_node_user: {
    Out.K = Kind::User;
    isl_ast_expr *Call = isl_ast_node_user_get_expr(N);
    // A call whose argument 0 is the tuple name and 1.. the coordinates.
    int NArgs = isl_ast_expr_op_get_n_arg(Call);
    for (int I = 1; I < NArgs; ++I) {
      isl_ast_expr *A = isl_ast_expr_op_get_arg(Call, I);
      Out.Assign.emplace_back(DimSlots.at(I - 1), IntExpr::fromIsl(A, Slots));
      isl_ast_expr_free(A);
    }
    isl_ast_expr_free(Call);
    break;
  }
  default:
    throw std::logic_error("interpreter: unexpected isl AST node");
  }
  Nodes[Me] = std::move(Out);
  return Me;
}

bool LoopNest::controlUses(unsigned I, unsigned Slot) const {
  const Node &N = Nodes[I];
  switch (N.K) {
  case Kind::For:
    if (N.Init.usesSlot(Slot) || N.Cond.usesSlot(Slot) || N.Inc.usesSlot(Slot))
      return true;
    break;
  case Kind::If:
    if (N.Cond.usesSlot(Slot))
      return true;
    break;
  case Kind::Block:
    break;
  case Kind::User:
    // Coordinates only: they change what is visited, not how often.
    return false;
  }
  for (unsigned K : N.Kids)
    if (controlUses(K, Slot))
      return true;
  return false;
}

uint64_t LoopNest::count(unsigned I, long *Env) const {
  const Node &N = Nodes[I];
  switch (N.K) {
  case Kind::For: {
    long Inc = N.Inc.eval(Env);
    assert(Inc > 0 && "isl loops count upwards");
    long &It = Env[N.Slot];
    It = N.Init.eval(Env);
    if (N.Uniform && N.HasUpper) {
      long Hi = N.Cond.eval(Env);
      if (Hi < It)
        return 0;
      uint64_t Trips = static_cast<uint64_t>(Hi - It) / Inc + 1;
      return Trips * count(N.Kids[0], Env);
    }
    if (N.Uniform) {
      uint64_t Trips = 0;
      for (; N.Cond.eval(Env); It += Inc)
        ++Trips;
      return Trips ? Trips * count(N.Kids[0], Env) : 0;
    }
    uint64_t Total = 0;
    if (N.HasUpper) {
      long Hi = N.Cond.eval(Env);
      for (; It <= Hi; It += Inc)
        Total += count(N.Kids[0], Env);
    } else {
      for (; N.Cond.eval(Env); It += Inc)
        Total += count(N.Kids[0], Env);
    }
    return Total;
  }
  case Kind::If:
    if (N.Cond.eval(Env))
      return count(N.Kids[0], Env);
    return N.HasElse ? count(N.Kids[1], Env) : 0;
  case Kind::Block: {
    uint64_t Total = 0;
    for (unsigned K : N.Kids)
      Total += count(K, Env);
    return Total;
  }
  case Kind::User:
    return 1;
  }
  return 0;
}

uint64_t countPoints(const isl::set &S) {
  SlotMap Slots;
  std::vector<unsigned> Dims;
  for (unsigned D = 0, N = isl_set_dim(S.get(), isl_dim_set); D < N; ++D)
    Dims.push_back(Slots.add("x" + std::to_string(D)));
  LoopNest L(S, Dims, Slots);
  std::vector<long> Env(Slots.size(), 0);
  return L.count(Env.data());
}

} // namespace loopy::interp
