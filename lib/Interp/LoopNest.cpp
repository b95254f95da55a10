//===- LoopNest.cpp - Executable loops over an isl set --------------------===//
#include "LoopNest.h"
#include "loopy/Support/Isl.h"

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
  unsigned Dims = S.tuple_dim();
  // Iterators get names no kernel index can have, so they never shadow
  // one of the set's parameters.
  isl::id_list Iters(S.ctx(), Dims);
  for (unsigned D = 0; D < Dims; ++D) {
    std::string Name = "it." + std::to_string(Slots.size());
    Slots.add(Name);
    Iters = Iters.add(take(Ctx, isl_id_alloc(Ctx, Name.c_str(), nullptr)));
  }
  isl::set Dom = S;
  if (!checkBool(Ctx, isl_set_has_tuple_name(Dom.get())))
    Dom = take(Ctx, isl_set_set_tuple_name(Dom.release(), "P"));
  isl::map Sched = take(Ctx, isl_map_identity(isl_space_map_from_set(
                                 isl_set_get_space(Dom.get()))));
  Sched = Sched.intersect_domain(Dom);
  Sched = take(Ctx, isl_map_reset_tuple_id(Sched.release(), isl_dim_out));
  isl::ast_build Build = isl::ast_build::from_context(S.params());
  Build = take(Ctx, isl_ast_build_set_iterators(Build.release(),
                                                Iters.release()));
  compile(Build.node_from_schedule_map(isl::union_map(Sched)), DimSlots,
          Slots);
}

void LoopNest::compileFor(const isl::ast_node &N, Node &Out,
                          const SlotMap &Slots) {
  isl_ctx *Ctx = N.ctx().get();
  isl::ast_expr Iter = take(Ctx, isl_ast_node_for_get_iterator(N.get()));
  Out.Slot =
      Slots.slot(take(Ctx, isl_ast_expr_id_get_id(Iter.get())).name());

  isl::ast_expr Init = take(Ctx, isl_ast_node_for_get_init(N.get()));
  isl::ast_expr Cond = take(Ctx, isl_ast_node_for_get_cond(N.get()));
  isl::ast_expr Inc = take(Ctx, isl_ast_node_for_get_inc(N.get()));
  Out.Init = IntExpr::fromIsl(Init, Slots);
  Out.Inc = IntExpr::fromIsl(Inc, Slots);
  Out.Cond = IntExpr::fromIsl(Cond, Slots);
  // "it <= e" or "it < e" with e free of it: evaluate e once per loop.
  isl_ast_expr_op_type Op = isl_ast_expr_op_get_type(Cond.get());
  if (Op == isl_ast_expr_op_le || Op == isl_ast_expr_op_lt) {
    isl::ast_expr L = take(Ctx, isl_ast_expr_op_get_arg(Cond.get(), 0));
    isl::ast_expr R = take(Ctx, isl_ast_expr_op_get_arg(Cond.get(), 1));
    IntExpr Left = IntExpr::fromIsl(L, Slots);
    IntExpr Bound = IntExpr::fromIsl(R, Slots);
    if (isl_ast_expr_get_type(L.get()) == isl_ast_expr_id &&
        Left.usesSlot(Out.Slot) && !Bound.usesSlot(Out.Slot)) {
      if (Op == isl_ast_expr_op_lt) {
        isl::ast_expr One =
            take(Ctx, isl_ast_expr_from_val(isl_val_one(Ctx)));
        R = take(Ctx, isl_ast_expr_sub(R.release(), One.release()));
        Bound = IntExpr::fromIsl(R, Slots);
      }
      Out.Cond = Bound;
      Out.HasUpper = true;
    }
  }
}

unsigned LoopNest::compile(const isl::ast_node &N,
                           const std::vector<unsigned> &DimSlots,
                           const SlotMap &Slots) {
  isl_ctx *Ctx = N.ctx().get();
  unsigned Me = Nodes.size();
  Nodes.emplace_back();
  Node Out;
  switch (isl_ast_node_get_type(N.get())) {
  case isl_ast_node_for: {
    Out.K = Kind::For;
    compileFor(N, Out, Slots);
    Out.Kids.push_back(compile(take(Ctx, isl_ast_node_for_get_body(N.get())),
                               DimSlots, Slots));
    Out.Uniform = !controlUses(Out.Kids[0], Out.Slot);
    break;
  }
  case isl_ast_node_if: {
    Out.K = Kind::If;
    Out.Cond = IntExpr::fromIsl(take(Ctx, isl_ast_node_if_get_cond(N.get())),
                                Slots);
    Out.Kids.push_back(compile(
        take(Ctx, isl_ast_node_if_get_then_node(N.get())), DimSlots, Slots));
    if (checkBool(Ctx, isl_ast_node_if_has_else_node(N.get()))) {
      Out.Kids.push_back(
          compile(take(Ctx, isl_ast_node_if_get_else_node(N.get())),
                  DimSlots, Slots));
      Out.HasElse = true;
    }
    break;
  }
  case isl_ast_node_block: {
    Out.K = Kind::Block;
    isl::ast_node_list L =
        take(Ctx, isl_ast_node_block_get_children(N.get()));
    unsigned Count = checkSize(Ctx, isl_ast_node_list_n_ast_node(L.get()));
    for (unsigned I = 0; I < Count; ++I)
      Out.Kids.push_back(compile(L.at(I), DimSlots, Slots));
    break;
  }
  case isl_ast_node_mark:
    Out.K = Kind::Block;
    Out.Kids.push_back(compile(take(Ctx, isl_ast_node_mark_get_node(N.get())),
                               DimSlots, Slots));
    break;
  case isl_ast_node_user: {
    Out.K = Kind::User;
    isl::ast_expr Call = take(Ctx, isl_ast_node_user_get_expr(N.get()));
    // A call whose argument 0 is the tuple name and 1.. the coordinates.
    unsigned NArgs = checkSize(Ctx, isl_ast_expr_op_get_n_arg(Call.get()));
    for (unsigned I = 1; I < NArgs; ++I)
      Out.Assign.emplace_back(
          DimSlots.at(I - 1),
          IntExpr::fromIsl(take(Ctx, isl_ast_expr_op_get_arg(Call.get(), I)),
                           Slots));
    break;
  }
  case isl_ast_node_error:
    throwLastError(Ctx);
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

long LoopNest::startLoop(const Node &N, long *Env) const {
  long Inc = N.Inc.eval(Env);
  assert(Inc > 0 && "isl loops count upwards");
  Env[N.Slot] = N.Init.eval(Env);
  return Inc;
}

std::pair<uint64_t, uint64_t> LoopNest::uniformShape(const Node &N,
                                                     long *Env) const {
  long Hi = N.Cond.eval(Env), It = Env[N.Slot];
  if (Hi < It)
    return {0, 0};
  uint64_t Trips = static_cast<uint64_t>(Hi - It) / N.Inc.eval(Env) + 1;
  return {Trips, count(N.Kids[0], Env)};
}

bool LoopNest::nth(unsigned I, uint64_t Rank, long *Env) const {
  const Node &N = Nodes[I];
  // Descends into the part of \p Kid's points that holds Rank, or steps
  // over all of them.
  auto Within = [&](unsigned Kid, bool &Found) {
    uint64_t C = count(Kid, Env);
    if (Rank < C) {
      Found = nth(Kid, Rank, Env);
      return true;
    }
    Rank -= C;
    return false;
  };
  bool Found = false;
  switch (N.K) {
  case Kind::For: {
    long Inc = startLoop(N, Env);
    long &It = Env[N.Slot];
    if (N.Uniform && N.HasUpper) {
      auto [Trips, Each] = uniformShape(N, Env);
      if (Each == 0 || Rank / Each >= Trips)
        return false;
      It += static_cast<long>(Rank / Each) * Inc;
      return nth(N.Kids[0], Rank % Each, Env);
    }
    return eachTrip(N, Inc, Env, [&] { return Within(N.Kids[0], Found); }) &&
           Found;
  }
  case Kind::If:
    if (N.Cond.eval(Env))
      return nth(N.Kids[0], Rank, Env);
    return N.HasElse && nth(N.Kids[1], Rank, Env);
  case Kind::Block:
    for (unsigned K : N.Kids)
      if (Within(K, Found))
        return Found;
    return false;
  case Kind::User:
    if (Rank != 0)
      return false;
    for (const auto &[Slot, E] : N.Assign)
      Env[Slot] = E.eval(Env);
    return true;
  }
  return false;
}

uint64_t LoopNest::count(unsigned I, long *Env) const {
  const Node &N = Nodes[I];
  switch (N.K) {
  case Kind::For: {
    long Inc = startLoop(N, Env);
    if (N.Uniform && N.HasUpper) {
      auto [Trips, Each] = uniformShape(N, Env);
      return Trips * Each;
    }
    if (N.Uniform) {
      uint64_t Trips = 0;
      eachTrip(N, Inc, Env, [&] {
        ++Trips;
        return false;
      });
      return Trips ? Trips * count(N.Kids[0], Env) : 0;
    }
    uint64_t Total = 0;
    eachTrip(N, Inc, Env, [&] {
      Total += count(N.Kids[0], Env);
      return false;
    });
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
  for (unsigned D = 0, N = S.tuple_dim(); D < N; ++D)
    Dims.push_back(Slots.add("x" + std::to_string(D)));
  LoopNest L(S, Dims, Slots);
  std::vector<long> Env(Slots.size(), 0);
  return L.count(Env.data());
}

} // namespace loopy::interp
