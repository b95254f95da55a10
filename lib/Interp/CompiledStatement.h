//===- CompiledStatement.h - A statement ready to run on host data -*- C++ -*-===//
//
// Turns one statement of a checked kernel, at the parameter values of one
// HostData, into what the interpreter executes: the loops over its output
// points (its domain projected onto the output indices, from isl's AST
// generator), the offset of the element written at each, and its
// right-hand side with every read's offset and every reduction's loops
// built by isl.
//
// The environment holds one slot per kernel index (slot i for
// Kernel::IndexNames[i]) and then one per loop iterator.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_COMPILEDSTATEMENT_H
#define LOOPY_LIB_INTERP_COMPILEDSTATEMENT_H

#include "Eval.h"

#include "loopy/IR/Kernel.h"

#include <vector>

namespace loopy::interp {

class CompiledStatement {
public:
  /// Compiles statement \p StmtIdx of \p K for \p D. Reads keep pointers
  /// into \p D's buffers, which must outlive this object.
  CompiledStatement(const Kernel &K, unsigned StmtIdx, const HostData &D);

  const Statement &statement() const { return S; }
  /// Loops over the output points; each sets the output indices' slots.
  const LoopNest &outputs() const { return Outputs; }
  /// { [output indices] } at the parameter values.
  const isl::set &outputSet() const { return OutputSet; }
  /// Offset of the element written at the output point in \p Env.
  long writeOffset(const long *Env) const { return WriteOffset.eval(Env); }
  /// The right-hand side at the output point in \p Env.
  Value value(long *Env) const { return evaluate(Rhs, Env); }
  /// A zeroed environment with a slot for every index and iterator.
  std::vector<long> environment() const {
    return std::vector<long>(Slots.size(), 0);
  }

private:
  /// The element offset of \p A as a function of the \p Active indices.
  IntExpr offsetOf(const Access &A, const std::vector<unsigned> &Active);
  ValueNode compileValue(const Expr &E, const std::vector<unsigned> &Active);
  void compileLeaf(const Expr &E, ValueNode &N);

  const Kernel &K;
  const Statement &S;
  const HostData &D;
  SlotMap Slots;
  /// Index names of the statement's tuple, by position.
  std::vector<std::string> Names;
  /// The statement's domain at the parameter values.
  isl::set Domain;
  isl::set OutputSet;
  LoopNest Outputs;
  IntExpr WriteOffset;
  ValueNode Rhs;
};

} // namespace loopy::interp

#endif
