//===- Eval.cpp - Typed evaluation of a statement's right-hand side -------===//
#include "Eval.h"

#include "Bytes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace loopy::interp {

Value floatValue(DType T, double X) {
  Value V;
  switch (T) {
  case DType::F16:
    V.F = f16ToFloat(floatToF16(static_cast<float>(X)));
    break;
  case DType::BF16:
    V.F = bf16ToFloat(floatToBf16(static_cast<float>(X)));
    break;
  case DType::F32:
    V.F = static_cast<float>(X);
    break;
  default:
    V.F = X;
  }
  return V;
}

Value intValue(DType T, int64_t X) {
  Value V;
  V.I = wrapInt(T, X);
  return V;
}

static Value boolValue(bool B) {
  Value V;
  V.I = B;
  return V;
}

/// Truncation toward zero, saturating at the limits of \p T; NaN gives 0.
static int64_t saturate(double X, DType T) {
  if (std::isnan(X))
    return 0;
  // The limits are powers of two (less one), exact in a double.
  double Lo = static_cast<double>(intMin(T));
  double Hi = static_cast<double>(intMax(T)) + 1;
  if (X <= Lo)
    return intMin(T);
  if (X >= Hi)
    return intMax(T);
  return static_cast<int64_t>(X);
}

Value castValue(Value V, DType From, DType To) {
  if (isFloat(To)) {
    if (isFloat(From))
      return floatValue(To, V.F);
    // Through float for f32 and the 16-bit types, as the device does.
    if (To == DType::F64) {
      Value R;
      R.F = static_cast<double>(V.I);
      return R;
    }
    return floatValue(To, static_cast<float>(V.I));
  }
  if (isFloat(From))
    return intValue(To, saturate(V.F, To));
  return intValue(To, V.I);
}

double toDouble(Value V, DType T) {
  return isFloat(T) ? V.F : static_cast<double>(V.I);
}

void storeValue(HostArray &A, long Offset, Value V) {
  if (isFloat(A.type()))
    A.setDouble(Offset, V.F);
  else
    A.setInt(Offset, V.I);
}

namespace {

int64_t wrapAdd(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B));
}
int64_t wrapSub(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) -
                              static_cast<uint64_t>(B));
}
int64_t wrapMul(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}

/// Integer division and remainder as the language defines them (see
/// docs/language.md, 8.2): C's, truncating toward zero, and defined
/// everywhere: x / 0 = 0 and x % 0 = x, and the minimum divided by -1 wraps
/// to itself with remainder 0, so that x == (x / y) * y + x % y always holds
/// (with wrapping).
int64_t intDiv(int64_t A, int64_t B) {
  if (B == 0)
    return 0;
  if (B == -1)
    return wrapSub(0, A);
  return A / B;
}
int64_t intRem(int64_t A, int64_t B) {
  if (B == 0)
    return A;
  if (B == -1)
    return 0;
  return A % B;
}

/// Applies \p F in the precision of \p T (float for f32, and for the
/// 16-bit types, whose result is rounded back).
template <class Fn> Value inPrecision(DType T, double A, double B, Fn F) {
  if (computeType(T) == DType::F32)
    return floatValue(T, F(static_cast<float>(A), static_cast<float>(B)));
  return floatValue(T, F(A, B));
}

Value binary(BinaryOp Op, DType T, DType OpT, Value A, Value B) {
  bool F = isFloat(OpT);
  switch (Op) {
  case BinaryOp::Add:
    return F ? inPrecision(T, A.F, B.F, [](auto X, auto Y) { return X + Y; })
             : intValue(T, wrapAdd(A.I, B.I));
  case BinaryOp::Sub:
    return F ? inPrecision(T, A.F, B.F, [](auto X, auto Y) { return X - Y; })
             : intValue(T, wrapSub(A.I, B.I));
  case BinaryOp::Mul:
    return F ? inPrecision(T, A.F, B.F, [](auto X, auto Y) { return X * Y; })
             : intValue(T, wrapMul(A.I, B.I));
  case BinaryOp::Div:
    return F ? inPrecision(T, A.F, B.F, [](auto X, auto Y) { return X / Y; })
             : intValue(T, intDiv(A.I, B.I));
  case BinaryOp::Rem:
    return F ? inPrecision(T, A.F, B.F,
                           [](auto X, auto Y) { return std::fmod(X, Y); })
             : intValue(T, intRem(A.I, B.I));
  case BinaryOp::Lt:
    return boolValue(F ? A.F < B.F : A.I < B.I);
  case BinaryOp::Le:
    return boolValue(F ? A.F <= B.F : A.I <= B.I);
  case BinaryOp::Gt:
    return boolValue(F ? A.F > B.F : A.I > B.I);
  case BinaryOp::Ge:
    return boolValue(F ? A.F >= B.F : A.I >= B.I);
  case BinaryOp::Eq:
    return boolValue(F ? A.F == B.F : A.I == B.I);
  case BinaryOp::Ne:
    return boolValue(F ? A.F != B.F : A.I != B.I);
  case BinaryOp::And:
    return boolValue(A.I && B.I);
  case BinaryOp::Or:
    return boolValue(A.I || B.I);
  }
  return A;
}

/// \p Fn in the precision of \p T: the float overloads of <cmath> for f32.
template <class T> T mathFloat(MathFn Fn, const T *X) {
  static_assert(std::is_same_v<decltype(std::pow(X[0], X[1])), T>);
  switch (Fn) {
  case MathFn::Sqrt:
    return std::sqrt(X[0]);
  case MathFn::Exp:
    return std::exp(X[0]);
  case MathFn::Log:
    return std::log(X[0]);
  case MathFn::Sin:
    return std::sin(X[0]);
  case MathFn::Cos:
    return std::cos(X[0]);
  case MathFn::Tanh:
    return std::tanh(X[0]);
  case MathFn::Abs:
    return std::fabs(X[0]);
  case MathFn::Pow:
    return std::pow(X[0], X[1]);
  case MathFn::Fma:
    return std::fma(X[0], X[1], X[2]);
  case MathFn::Min:
    return std::fmin(X[0], X[1]);
  case MathFn::Max:
    return std::fmax(X[0], X[1]);
  }
  return X[0];
}

int64_t mathInt(MathFn Fn, const int64_t *X) {
  switch (Fn) {
  case MathFn::Abs:
    return X[0] < 0 ? wrapSub(0, X[0]) : X[0];
  case MathFn::Min:
    return std::min(X[0], X[1]);
  case MathFn::Max:
    return std::max(X[0], X[1]);
  default:
    return X[0]; // Sema allows only abs, min and max on integers.
  }
}

Value call(const ValueNode &N, long *Env) {
  MathFn Fn = static_cast<MathFn>(N.Op);
  Value Args[3] = {};
  for (size_t I = 0; I < N.Kids.size() && I < 3; ++I)
    Args[I] = evaluate(N.Kids[I], Env);
  if (computeType(N.Type) == DType::F32) {
    float X[3] = {static_cast<float>(Args[0].F), static_cast<float>(Args[1].F),
                  static_cast<float>(Args[2].F)};
    return floatValue(N.Type, mathFloat(Fn, X));
  }
  if (N.Type == DType::F64) {
    double X[3] = {Args[0].F, Args[1].F, Args[2].F};
    return floatValue(N.Type, mathFloat(Fn, X));
  }
  int64_t X[3] = {Args[0].I, Args[1].I, Args[2].I};
  return intValue(N.Type, mathInt(Fn, X));
}

double combine(ReduceOp Op, double Acc, double X) {
  switch (Op) {
  case ReduceOp::Sum:
    return Acc + X;
  case ReduceOp::Prod:
    return Acc * X;
  case ReduceOp::Max:
    return std::fmax(Acc, X);
  case ReduceOp::Min:
    return std::fmin(Acc, X);
  }
  return Acc;
}

int64_t combine(ReduceOp Op, int64_t Acc, int64_t X) {
  switch (Op) {
  case ReduceOp::Sum:
    return wrapAdd(Acc, X);
  case ReduceOp::Prod:
    return wrapMul(Acc, X);
  case ReduceOp::Max:
    return std::max(Acc, X);
  case ReduceOp::Min:
    return std::min(Acc, X);
  }
  return Acc;
}

/// The identity of \p Op on the accumulator type \p Acc of a reduction of
/// type \p T: -inf/+inf for float max/min, the limits of the type \p T
/// computes in for integers (i32 for the 8- and 16-bit ones, as the
/// device's accumulators).
template <class Acc> Acc identity(ReduceOp Op, DType T) {
  if (Op == ReduceOp::Sum || Op == ReduceOp::Prod)
    return Op == ReduceOp::Sum ? 0 : 1;
  bool Max = Op == ReduceOp::Max;
  if constexpr (std::is_floating_point_v<Acc>)
    return Max ? -std::numeric_limits<Acc>::infinity()
               : std::numeric_limits<Acc>::infinity();
  if (computeType(T) == DType::I32)
    return Max ? std::numeric_limits<int32_t>::min()
               : std::numeric_limits<int32_t>::max();
  return Max ? std::numeric_limits<int64_t>::min()
             : std::numeric_limits<int64_t>::max();
}

/// Folds the reduced expression of \p N over its loops into an
/// accumulator of type \p Acc (double for floats, int64_t for integers).
template <class Acc> Acc fold(const ValueNode &N, long *Env) {
  ReduceOp Op = static_cast<ReduceOp>(N.Op);
  Acc A = identity<Acc>(Op, N.Type);
  N.Nest->forEach(Env, [&] {
    Value V = evaluate(N.Kids[0], Env);
    if constexpr (std::is_floating_point_v<Acc>)
      A = combine(Op, A, V.F);
    else
      A = combine(Op, A, V.I);
  });
  return A;
}

Value reduce(const ValueNode &N, long *Env) {
  if (isFloat(N.Type))
    return floatValue(N.Type, fold<double>(N, Env));
  return intValue(N.Type, fold<int64_t>(N, Env));
}

Value load(const ValueNode &N, long *Env) {
  const unsigned char *P = N.Data + N.Offset.eval(Env) * dtypeSize(N.Type);
  Value V;
  if (isFloat(N.Type))
    V.F = loadFloat(P, N.Type);
  else
    V.I = loadInt(P, N.Type);
  return V;
}

} // namespace

Value evaluate(const ValueNode &N, long *Env) {
  switch (N.Kind) {
  case ExprKind::IntConst:
  case ExprKind::FloatConst:
  case ExprKind::Param:
  case ExprKind::Scalar:
    return N.Const;
  case ExprKind::Index: {
    Value V;
    V.I = Env[N.Slot];
    return V;
  }
  case ExprKind::Read:
    return load(N, Env);
  case ExprKind::Unary: {
    Value A = evaluate(N.Kids[0], Env);
    if (static_cast<UnaryOp>(N.Op) == UnaryOp::Not)
      return boolValue(!A.I);
    return isFloat(N.Type) ? floatValue(N.Type, -A.F)
                           : intValue(N.Type, wrapSub(0, A.I));
  }
  case ExprKind::Binary: {
    BinaryOp Op = static_cast<BinaryOp>(N.Op);
    Value A = evaluate(N.Kids[0], Env);
    if (Op == BinaryOp::And && !A.I)
      return boolValue(false);
    if (Op == BinaryOp::Or && A.I)
      return boolValue(true);
    return binary(Op, N.Type, N.OperandType, A, evaluate(N.Kids[1], Env));
  }
  case ExprKind::Call:
    return call(N, Env);
  case ExprKind::Cast:
    return castValue(evaluate(N.Kids[0], Env), N.OperandType, N.Type);
  case ExprKind::Select:
    return evaluate(N.Kids[0], Env).I ? evaluate(N.Kids[1], Env)
                                      : evaluate(N.Kids[2], Env);
  case ExprKind::Reduce:
    return reduce(N, Env);
  }
  return N.Const;
}

} // namespace loopy::interp
