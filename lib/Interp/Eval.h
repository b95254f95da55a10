//===- Eval.h - Typed evaluation of a statement's right-hand side -*- C++ -*-===//
//
// The right-hand side of a statement, compiled for one HostData: reads
// know their buffer and their element offset as an isl-built integer
// expression, reductions their isl-built loop nest, parameters and
// scalars their values. evaluate() computes it at the point whose index
// values are in the environment, with the arithmetic of the dtypes (see
// Interpreter.h).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_INTERP_EVAL_H
#define LOOPY_LIB_INTERP_EVAL_H

#include "IntExpr.h"
#include "LoopNest.h"

#include "loopy/IR/Expr.h"
#include "loopy/Interp/HostData.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace loopy::interp {

/// A value of a known dtype: F for f32 and f64 (an f32 value is a float
/// widened to double), I for i32, i64 and Bool (0 or 1).
union Value {
  double F;
  int64_t I;
};

struct ValueNode {
  ExprKind Kind = ExprKind::IntConst;
  DType Type = DType::I64;
  /// Cast, comparisons: the operands' type.
  DType OperandType = DType::I64;
  int Op = 0;
  /// IntConst, FloatConst, Param, Scalar: the value.
  Value Const{};
  /// Index: its slot.
  unsigned Slot = 0;
  /// Read: the array's buffer and the element offset.
  const unsigned char *Data = nullptr;
  IntExpr Offset;
  /// Reduce: the loops over its indices.
  std::unique_ptr<LoopNest> Nest;
  /// Operands (for Reduce, the reduced expression; none for Read).
  std::vector<ValueNode> Kids;
};

/// \p X of type \p T as a Value: rounded to f32 or wrapped to i32.
Value floatValue(DType T, double X);
Value intValue(DType T, int64_t X);
/// \p V of type \p From converted as a cast to \p To converts it.
Value castValue(Value V, DType From, DType To);
/// \p V of type \p T as double.
double toDouble(Value V, DType T);
/// Stores \p V of the array's type at \p Offset of \p A.
void storeValue(HostArray &A, long Offset, Value V);

/// The value of \p N at the point in \p Env.
Value evaluate(const ValueNode &N, long *Env);

} // namespace loopy::interp

#endif
