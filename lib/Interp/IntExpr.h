//===- IntExpr.h - Integer expressions from isl AST expressions -*- C++ -*-===//
//
// Loop bounds, guards and subscripts come out of isl as isl_ast_expr
// trees over named variables. IntExpr compiles one into a tree over the
// slots of an environment (an array of long), and flattens an affine one
// into a constant plus slot terms, which is what almost every subscript
// and bound is, so that evaluating it costs a few multiply-adds.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_INTEXPR_H
#define LOOPY_LIB_INTERP_INTEXPR_H

#include <isl/ast.h>
#include <isl/cpp.h>

#include <map>
#include <string>
#include <vector>

namespace loopy::interp {

/// Environment slots of named variables: kernel indices first, then the
/// loop iterators of each loop nest.
class SlotMap {
public:
  /// The slot of \p Name; asserts that it has one.
  unsigned slot(const std::string &Name) const;
  bool has(const std::string &Name) const { return Slots.count(Name); }
  /// Gives \p Name the next free slot and returns it.
  unsigned add(const std::string &Name);
  unsigned size() const { return Count; }

private:
  std::map<std::string, unsigned> Slots;
  unsigned Count = 0;
};

class IntExpr {
public:
  IntExpr() = default;
  static IntExpr constant(long V);
  static IntExpr slot(unsigned S);
  /// Compiles \p E (borrowed) whose identifiers all have slots in \p Slots.
  static IntExpr fromIsl(const isl::ast_expr &E, const SlotMap &Slots);
  /// Compiles \p PA [p...] -> { [] -> [e] }, a function of parameters that
  /// have slots in \p Slots, through isl's AST expression builder, which
  /// simplifies it under the parameter set \p Context.
  static IntExpr fromPwAff(const isl::pw_aff &PA, const isl::set &Context,
                           const SlotMap &Slots);

  long eval(const long *Env) const {
    if (!Linear)
      return evalNode(Root, Env);
    long V = Const;
    for (const Term &T : Terms)
      V += T.Coef * Env[T.Slot];
    return V;
  }
  bool usesSlot(unsigned S) const;

private:
  enum class Op {
    Const, Slot, Add, Sub, Mul, Neg, Div, FloorDiv, Rem, Min, Max,
    Select, Eq, Le, Lt, Ge, Gt, And, Or
  };
  struct Node {
    Op O = Op::Const;
    long Value = 0;
    unsigned Slot = 0;
    std::vector<Node> Args;
  };
  struct Term {
    long Coef;
    unsigned Slot;
  };

  static Op opOf(isl_ast_expr_op_type T);
  static Node compile(const isl::ast_expr &E, const SlotMap &Slots);
  static long evalNode(const Node &N, const long *Env);
  static bool usesSlot(const Node &N, unsigned S);
  /// Adds Scale * N to the linear form; false if N is not affine.
  bool flatten(const Node &N, long Scale);

  Node Root;
  bool Linear = false;
  long Const = 0;
  std::vector<Term> Terms;
};

} // namespace loopy::interp

#endif
