//===- Expr.h - Typed value expressions of the Kernel IR --------*- C++ -*-===//
//
// The right-hand side of a statement after name resolution and type
// checking. Every node has a dtype and the source range it came from.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_IR_EXPR_H
#define LOOPY_IR_EXPR_H

#include "loopy/IR/Type.h"
#include "loopy/Support/SourceManager.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace loopy {

enum class ExprKind {
  IntConst,   // IntValue
  FloatConst, // FloatValue (Spelling keeps the source text)
  Index,      // a domain index used as a value (i64); Id = domain position
  Param,      // an index parameter used as a value (i64); Id = parameter position
  Scalar,     // a scalar argument; Id = argument position
  Read,       // an array element; Id = argument position, Operands = subscripts,
              // AccessId = position in Statement::Reads
  Unary,      // Op: UnaryOp
  Binary,     // Op: BinaryOp
  Call,       // Op: MathFn
  Cast,       // to Type
  Select,     // Operands: condition, if-true, if-false
  Reduce,     // Op: ReduceOp, ReduceIndices = domain positions, Operands[0]
};

enum class UnaryOp { Neg, Not };
enum class BinaryOp { Add, Sub, Mul, Div, Rem, Lt, Le, Gt, Ge, Eq, Ne, And, Or };
enum class MathFn { Sqrt, Exp, Log, Sin, Cos, Tanh, Abs, Pow, Fma, Min, Max };
enum class ReduceOp { Sum, Prod, Max, Min };

const char *binaryOpSpelling(BinaryOp Op);
const char *mathFnName(MathFn F);
const char *reduceOpName(ReduceOp Op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind Kind;
  DType Type;
  SourceRange Loc;
  int Op = 0;
  unsigned Id = 0;
  unsigned AccessId = 0;
  int64_t IntValue = 0;
  double FloatValue = 0;
  std::string Spelling;
  std::vector<unsigned> ReduceIndices;
  std::vector<ExprPtr> Operands;

  Expr(ExprKind K, DType T, SourceRange L) : Kind(K), Type(T), Loc(L) {}

  UnaryOp unaryOp() const { return static_cast<UnaryOp>(Op); }
  BinaryOp binaryOp() const { return static_cast<BinaryOp>(Op); }
  MathFn mathFn() const { return static_cast<MathFn>(Op); }
  ReduceOp reduceOp() const { return static_cast<ReduceOp>(Op); }
};

} // namespace loopy

#endif
