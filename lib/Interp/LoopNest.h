//===- LoopNest.h - Executable loops over an isl set ------------*- C++ -*-===//
//
// A LoopNest visits every integer point of a set, in lexicographic order,
// through the loops, guards and bounds isl's AST generator computed for
// it: no bound is derived by hand, so triangles, strides, unions and
// non-divisible extents come out as isl says. The set's parameters are
// variables of the environment (the indices fixed by an enclosing loop),
// so one nest serves every value they take.
//
// A nest can also count the points instead of visiting them. A loop whose
// body's bounds and guards do not mention its iterator (every loop of a
// box, the inner loop of a triangle) is not run: its body is counted once
// and multiplied by the trip count, so counting a 4096^3 box costs one
// visit per loop and a 4096-row triangle one per row. With the counts it
// finds the point of a given rank in the visiting order alike (nth), which
// samples a large set without visiting it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_LOOPNEST_H
#define LOOPY_LIB_INTERP_LOOPNEST_H

#include "IntExpr.h"

#include <isl/cpp.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace loopy::interp {

class LoopNest {
public:
  LoopNest() = default;
  /// Loops over \p S [p...] -> { [x0, ..., xk] }, whose parameters are named
  /// variables of \p Slots. At each point, dimension d's value is stored in
  /// slot \p DimSlots[d]. The loop iterators get new slots in \p Slots.
  LoopNest(const isl::set &S, const std::vector<unsigned> &DimSlots,
           SlotMap &Slots);

  /// Calls \p F() once per point of the set, for the parameter values in
  /// \p Env, with the point's coordinates stored in their slots of \p Env.
  template <class Fn> void forEach(long *Env, Fn &&F) const {
    if (!Nodes.empty())
      run(0, Env, F);
  }

  /// The number of points forEach would visit for the parameter values in
  /// \p Env; the iterators' slots of \p Env are overwritten.
  uint64_t count(long *Env) const { return Nodes.empty() ? 0 : count(0, Env); }

  /// Stores in \p Env the point that forEach visits after \p Rank others,
  /// for the parameter values in \p Env, and returns true; false where
  /// there are no more than \p Rank points. Loops are stepped over by
  /// counting their bodies, so a uniform one (every loop of a box) costs a
  /// division and a 4096-row triangle at most one count per row.
  bool nth(uint64_t Rank, long *Env) const {
    return !Nodes.empty() && nth(0, Rank, Env);
  }

private:
  enum class Kind { For, If, Block, User };
  struct Node {
    Kind K = Kind::Block;
    /// For: the iterator's slot, its initial value, inclusive upper bound
    /// (when the condition is one) or condition, and increment. If: the
    /// condition.
    unsigned Slot = 0;
    IntExpr Init, Cond, Inc;
    bool HasUpper = false;
    /// For: no bound or guard in the body uses the iterator, so every
    /// iteration visits the same number of points.
    bool Uniform = false;
    /// For: the body. If: then and, when HasElse, else. Block: children.
    std::vector<unsigned> Kids;
    bool HasElse = false;
    /// User: the value of each dimension, into slot Assign[d].first.
    std::vector<std::pair<unsigned, IntExpr>> Assign;
  };

  /// Appends the nodes of \p N and returns the index of its root.
  unsigned compile(const isl::ast_node &N,
                   const std::vector<unsigned> &DimSlots,
                   const SlotMap &Slots);
  void compileFor(const isl::ast_node &N, Node &Out, const SlotMap &Slots);
  /// Whether a bound or guard in the subtree at \p I reads slot \p Slot.
  bool controlUses(unsigned I, unsigned Slot) const;
  uint64_t count(unsigned I, long *Env) const;
  bool nth(unsigned I, uint64_t Rank, long *Env) const;
  /// Sets the iterator of the loop \p N to its first value; its increment.
  long startLoop(const Node &N, long *Env) const;
  /// The trips of the uniform loop \p N with an upper bound, its iterator
  /// at its first value, and the points of each (0 and 0 where it has no
  /// trip).
  std::pair<uint64_t, uint64_t> uniformShape(const Node &N, long *Env) const;
  /// Steps the iterator of the loop \p N, from its first value, by \p Inc
  /// over its trips, calling \p F() at each until it returns true; whether
  /// one did.
  template <class Fn>
  bool eachTrip(const Node &N, long Inc, long *Env, Fn F) const {
    long &It = Env[N.Slot];
    if (N.HasUpper) {
      long Hi = N.Cond.eval(Env);
      for (; It <= Hi; It += Inc)
        if (F())
          return true;
      return false;
    }
    for (; N.Cond.eval(Env); It += Inc)
      if (F())
        return true;
    return false;
  }

  template <class Fn> void run(unsigned I, long *Env, Fn &F) const {
    const Node &N = Nodes[I];
    switch (N.K) {
    case Kind::For: {
      long Inc = N.Inc.eval(Env);
      long &It = Env[N.Slot];
      if (N.HasUpper) {
        long Hi = N.Cond.eval(Env);
        for (It = N.Init.eval(Env); It <= Hi; It += Inc)
          run(N.Kids[0], Env, F);
      } else {
        for (It = N.Init.eval(Env); N.Cond.eval(Env); It += Inc)
          run(N.Kids[0], Env, F);
      }
      return;
    }
    case Kind::If:
      if (N.Cond.eval(Env))
        run(N.Kids[0], Env, F);
      else if (N.HasElse)
        run(N.Kids[1], Env, F);
      return;
    case Kind::Block:
      for (unsigned K : N.Kids)
        run(K, Env, F);
      return;
    case Kind::User:
      for (const auto &[Slot, E] : N.Assign)
        Env[Slot] = E.eval(Env);
      F();
      return;
    }
  }

  std::vector<Node> Nodes;
};

/// The number of integer points of the parameter-free set \p S { [x...] },
/// counted by a LoopNest without visiting them one by one.
uint64_t countPoints(const isl::set &S);

} // namespace loopy::interp

#endif
