//===- StatementText.cpp - The C text of a statement instance -------------===//
#include "StatementText.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Half.h"

#include <isl/aff.h>
#include <isl/ast_build.h>
#include <isl/val.h>

#include <algorithm>
#include <cassert>
#include <sstream>

namespace loopy {

using namespace device;

/// \p Off, a function of the parameters only, as a function on the
/// (unnamed) domain of \p X.
static isl_aff *liftToDomainOf(isl_aff *Off, isl_pw_aff *X) {
  isl::space Dom = isl::manage(isl_pw_aff_get_domain_space(X));
  return isl_aff_add_dims(Off, isl_dim_in,
                          isl_space_dim(Dom.get(), isl_dim_set));
}

static std::string tupleDimText(CodeGenState &G, const isl::ast_build &Build,
                                const isl::pw_multi_aff &Iter, unsigned Pos) {
  return exprText(Build,
                  isl::manage(isl_pw_multi_aff_get_pw_aff(Iter.get(), Pos)));
}

static std::string registerIndex(CodeGenState &G, const isl::ast_build &Build,
                                 const isl::pw_multi_aff &Iter, Piece P) {
  StatementMapping &M = G.M;
  const Statement &S = *G.M.S;
  if (M.GridMaps.empty())
    return "0";
  // Flat index: sum over registers of u_r * (product of later Ilps).
  unsigned First = (P == Piece::Init || P == Piece::Write)
                       ? S.OutputIndices.size()
                       : S.Indices.size();
  isl_pw_aff *Flat = nullptr;
  long Stride = 1;
  for (int R = M.GridMaps.size() - 1; R >= 0; --R) {
    isl_pw_aff *U = isl_pw_multi_aff_get_pw_aff(Iter.get(), First + R);
    U = isl_pw_aff_scale_val(U, isl_val_int_from_si(M.Ctx.get(), Stride));
    Flat = Flat ? isl_pw_aff_add(Flat, U) : U;
    Stride *= M.GridMaps[R]->Ilp;
  }
  return exprText(Build, isl::manage(Flat));
}

static std::string readText(CodeGenState &G, unsigned Read,
                            const isl::ast_build &Build, const isl::pw_multi_aff &Iter,
                            Piece P, bool PastDomain = false) {
  StatementMapping &M = G.M;
  const Statement &S = *G.M.S;
  isl::pw_multi_aff Access =
      PastDomain ? isl::pw_multi_aff(
                       M.accessFormOnTuple(S.Reads[Read].Relation, P))
                 : M.accessOnTuple(S.Reads[Read].Relation, P);
  isl_pw_multi_aff *At = isl_pw_multi_aff_pullback_pw_multi_aff(
      Access.release(), Iter.copy());
  const Stage *St = nullptr;
  if (P == Piece::Update || P == Piece::Compute)
    for (const Stage &X : G.Stages)
      if (X.Read == Read)
        St = &X;
  isl::pw_multi_aff Owned = isl::manage(At);
  std::vector<std::string> Sub;
  unsigned N = isl_pw_multi_aff_dim(At, isl_dim_out);
  for (unsigned D = 0; D < N; ++D) {
    isl_pw_aff *X = isl_pw_multi_aff_get_pw_aff(At, D);
    if (St) {
      // Shared buffer coordinates: x - offset of the block's box.
      isl_aff *Off = isl_multi_aff_get_aff(St->Box.Offset.get(), D);
      Off = isl_aff_align_params(Off, M.Params.copy());
      X = isl_pw_aff_sub(X, isl_pw_aff_from_aff(liftToDomainOf(Off, X)));
    }
    Sub.push_back(exprText(Build, isl::manage(X)));
  }
  if (!St)
    return G.Addr.element(S.Reads[Read].Arg, Sub);
  return St->element(Sub);
}

std::string updateReadText(CodeGenState &G, unsigned Read,
                           const isl::ast_build &Build,
                           const isl::pw_multi_aff &Iter) {
  return readText(G, Read, Build, Iter, Piece::Update);
}

std::string fragmentReadText(CodeGenState &G, unsigned Read,
                             const isl::ast_build &Build,
                             const isl::pw_multi_aff &Iter) {
  return readText(G, Read, Build, Iter, Piece::Update, /*PastDomain=*/true);
}

/// The C text of \p V, a float value of type \p T: an f32 literal for the
/// types computed in float (an f16 or bf16 value is one exactly).
static std::string floatLiteral(double V, DType T) {
  std::ostringstream OS;
  OS.precision(T == DType::F64 ? 17 : 9);
  OS << V;
  std::string S = OS.str();
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return T == DType::F64 ? S : S + "f";
}

static std::string literal(const Expr &E) {
  if (E.Kind == ExprKind::IntConst)
    return std::to_string(E.IntValue);
  double V = E.FloatValue;
  if (E.Type == DType::F16)
    V = f16ToFloat(floatToF16(static_cast<float>(V)));
  else if (E.Type == DType::BF16)
    V = bf16ToFloat(floatToBf16(static_cast<float>(V)));
  return floatLiteral(V, E.Type);
}

/// \p X, an integer computed in int, wrapped to \p T where \p T is an 8-
/// or 16-bit integer: a cast, which wraps modulo 2^bits on every target.
static std::string wrapped(DType T, const std::string &X) {
  return std::string("((") + cTypeName(T) + ")(" + X + "))";
}

/// \p X, a float computed in float, rounded to \p T where \p T is f16 or
/// bf16 (each operation's result is); an integer computed in int wrapped
/// to \p T where \p T is an 8- or 16-bit integer; \p X itself otherwise.
static std::string rounded(CodeGenState &G, DType T, const std::string &X) {
  if (isNarrowInt(T))
    return wrapped(T, X);
  if (!isHalf(T))
    return X;
  G.Half = true;
  return std::string("loopy_rn_") + dtypeName(T) + "(" + X + ")";
}

/// \p X, an element or scalar of type \p T, as the value it computes with:
/// f16 and bf16 widened to float.
static std::string widened(CodeGenState &G, DType T, const std::string &X) {
  if (!isHalf(T))
    return X;
  G.Half = true;
  return std::string("loopy_ld_") + dtypeName(T) + "(" + X + ")";
}

/// Whether \p X is \p Open (which ends in '(') with all of X's text after
/// it inside those parentheses: "f(a)" for "f(", not "f(a) + g(b)".
static bool enclosedBy(const std::string &X, const std::string &Open) {
  if (X.rfind(Open, 0) != 0 || X.empty() || X.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = Open.size() - 1; I < X.size(); ++I) {
    Depth += X[I] == '(' ? 1 : X[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return I == X.size() - 1;
  }
  return false;
}

/// \p X, a value of type \p T, as stored in an element of that type: f16
/// and bf16 narrowed to their 16 bits, the 8- and 16-bit integers wrapped
/// (where they are not yet).
static std::string narrowed(CodeGenState &G, DType T, const std::string &X) {
  if (isNarrowInt(T))
    return X.rfind(std::string("((") + cTypeName(T) + ")(", 0) == 0 &&
                   enclosedBy(X, "(")
               ? X
               : wrapped(T, X);
  if (!isHalf(T))
    return X;
  G.Half = true;
  // A value rounded to the type already narrows as it is.
  std::string Rounded = std::string("loopy_rn_") + dtypeName(T) + "(";
  std::string Inner = X;
  if (enclosedBy(X, Rounded))
    Inner = X.substr(Rounded.size(), X.size() - Rounded.size() - 1);
  return std::string("loopy_st_") + dtypeName(T) + "(" + Inner + ")";
}

/// Whether \p E is an integer / or % that C leaves undefined somewhere the
/// language defines it (a divisor of 0, or -1 with the type's minimum):
/// every one whose divisor is not a constant other than 0 and -1.
static bool needsDefinedDivision(const Expr &E) {
  if (E.binaryOp() != BinaryOp::Div && E.binaryOp() != BinaryOp::Rem)
    return false;
  if (!isInteger(E.Type))
    return false;
  // A constant divisor: a literal, or a negated one.
  const Expr *D = E.Operands[1].get();
  bool Negated = D->Kind == ExprKind::Unary && D->unaryOp() == UnaryOp::Neg;
  if (Negated)
    D = D->Operands[0].get();
  if (D->Kind != ExprKind::IntConst)
    return true;
  return D->IntValue == 0 || D->IntValue == (Negated ? 1 : -1);
}

static std::string valueText(CodeGenState &G, const Expr &E,
                             const isl::ast_build &Build,
                             const isl::pw_multi_aff &Iter, Piece P) {
  StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Statement &S = *G.M.S;
  auto V = [&](const Expr &X) { return valueText(G, X, Build, Iter, P); };
  switch (E.Kind) {
  case ExprKind::IntConst:
  case ExprKind::FloatConst:
    return literal(E);
  case ExprKind::Index: {
    int Pos = M.tuplePos(E.Id);
    if (P == Piece::Init || P == Piece::Write) {
      auto It = std::find(S.OutputIndices.begin(), S.OutputIndices.end(), E.Id);
      Pos = It - S.OutputIndices.begin();
    }
    // An index is 64-bit in the IR: its arithmetic in the statement keeps
    // that width even where the loops count in 32 bits.
    std::string T = tupleDimText(G, Build, Iter, Pos);
    return G.Index32 ? "((idx)(" + T + "))" : "(" + T + ")";
  }
  case ExprKind::Param:
    return G.Index32 ? "((idx)" + K.ParamNames[E.Id] + ")" : K.ParamNames[E.Id];
  case ExprKind::Scalar:
    return widened(G, E.Type, K.Args[E.Id].Name);
  case ExprKind::Read:
    return widened(G, E.Type, readText(G, E.AccessId, Build, Iter, P));
  case ExprKind::Unary:
    return rounded(G, E.Type,
                   std::string(E.unaryOp() == UnaryOp::Neg ? "-" : "!") +
                       "(" + V(*E.Operands[0]) + ")");
  case ExprKind::Binary:
    if (needsDefinedDivision(E)) {
      G.IntDivision = true;
      return rounded(G, E.Type,
                     std::string(E.binaryOp() == BinaryOp::Div ? "loopy_div_"
                                                               : "loopy_rem_") +
                         dtypeName(computeType(E.Type)) + "(" +
                         V(*E.Operands[0]) + ", " + V(*E.Operands[1]) + ")");
    }
    return rounded(G, E.Type,
                   "(" + V(*E.Operands[0]) + " " +
                       binaryOpSpelling(E.binaryOp()) + " " +
                       V(*E.Operands[1]) + ")");
  case ExprKind::Call: {
    bool F = isFloat(E.Type);
    std::string Name = mathFnName(E.mathFn());
    if (E.mathFn() == MathFn::Abs) {
      if (F) // exact: no rounding to the type
        return "fabs(" + V(*E.Operands[0]) + ")";
      // X in parentheses: "-" before a negated operand would read "--".
      std::string X = "(" + V(*E.Operands[0]) + ")";
      return rounded(G, E.Type, "(" + X + " < 0 ? -" + X + " : " + X + ")");
    }
    bool MinMax = E.mathFn() == MathFn::Min || E.mathFn() == MathFn::Max;
    if (F && MinMax)
      Name = "f" + Name;
    std::string S = Name + "(";
    for (size_t I = 0; I < E.Operands.size(); ++I) {
      std::string X = V(*E.Operands[I]);
      // A literal prints as an int, and so may an index that isl found
      // constant: beside a 64-bit operand, C's and OpenCL's integer min
      // and max would be ambiguous.
      ExprKind OK = E.Operands[I]->Kind;
      if (!F && MinMax && E.Type == DType::I64 &&
          (OK == ExprKind::IntConst || (OK == ExprKind::Index && !G.Index32)))
        X = "((" + std::string(cTypeName(E.Type)) + ")" + X + ")";
      // OpenCL's min and max have no overload for a char or short beside
      // an int: 8- and 16-bit operands are compared as the int they are.
      if (MinMax && isNarrowInt(E.Type))
        X = "((int)" + X + ")";
      S += (I ? ", " : "") + X;
    }
    return rounded(G, E.Type, S + ")");
  }
  case ExprKind::Cast:
    if (isNarrowInt(E.Type)) {
      // From an integer: wrapped. From a float: truncated toward zero and
      // saturated at the type's limits, through int, as the interpreter.
      const Expr &From = *E.Operands[0];
      if (!isFloat(From.Type))
        return wrapped(E.Type, V(From));
      return wrapped(E.Type, "min(max((int)(" + V(From) + "), " +
                                 std::to_string(intMin(E.Type)) + "), " +
                                 std::to_string(intMax(E.Type)) + ")");
    }
    return rounded(G, E.Type,
                   std::string("((") + cTypeName(computeType(E.Type)) + ")" +
                       V(*E.Operands[0]) + ")");
  case ExprKind::Select:
    return "(" + V(*E.Operands[0]) + " ? " + V(*E.Operands[1]) + " : " +
           V(*E.Operands[2]) + ")";
  case ExprKind::Reduce:
    // Accumulated in float for f16 and bf16, rounded once used.
    for (const Accumulator &A : M.Accs)
      if (A.Reduce == &E)
        return rounded(G, E.Type,
                       A.Name + "[" + registerIndex(G, Build, Iter, P) + "]");
    return "/*?*/";
  }
  return "/*?*/";
}

std::string identity(ReduceOp Op, DType T) {
  T = computeType(T);
  switch (Op) {
  case ReduceOp::Sum:
    return isFloat(T) ? (T == DType::F32 ? "0.0f" : "0.0") : "0";
  case ReduceOp::Prod:
    return isFloat(T) ? (T == DType::F32 ? "1.0f" : "1.0") : "1";
  case ReduceOp::Max:
    return isFloat(T) ? "-LOOPY_INFINITY"
                      : (T == DType::I32 ? "(-2147483647 - 1)"
                                         : "(-9223372036854775807L - 1)");
  case ReduceOp::Min:
    return isFloat(T)
               ? "LOOPY_INFINITY"
               : (T == DType::I32 ? "2147483647" : "9223372036854775807L");
  }
  return "0";
}

std::string zeroOf(DType T) { return identity(ReduceOp::Sum, T); }

static std::string writtenElement(CodeGenState &G, const Access &Write,
                                  const isl::ast_build &Build,
                                  const isl::pw_multi_aff &Iter, Piece P) {
  StatementMapping &M = G.M;
  isl_pw_multi_aff *At = isl_pw_multi_aff_pullback_pw_multi_aff(
      M.accessOnTuple(Write.Relation, P).release(), Iter.copy());
  isl::pw_multi_aff Owned = isl::manage(At);
  std::vector<std::string> Sub;
  for (int D = 0; D < isl_pw_multi_aff_dim(At, isl_dim_out); ++D)
    Sub.push_back(
        exprText(Build, isl::manage(isl_pw_multi_aff_get_pw_aff(At, D))));
  return G.Addr.element(Write.Arg, Sub);
}

Instance instanceText(CodeGenState &G, const isl::ast_build &Build,
                      const std::string &Tuple, isl::pw_multi_aff Iter) {
  StatementMapping &M = G.M;
  const Statement &S = *G.M.S;
  Instance I;
  if (Tuple == M.TupleInit) {
    std::string R = registerIndex(G, Build, Iter, Piece::Init);
    for (const Accumulator &A : M.Accs)
      I.Lines.push_back(A.Name + "[" + R + "] = " +
                        identity(A.Reduce->reduceOp(), A.Reduce->Type) + ";");
  } else if (Tuple == M.TupleUpdate) {
    Piece P = M.Accs.empty() ? Piece::Compute : Piece::Update;
    if (P == Piece::Compute) {
      // A fused statement's writes in turn.
      for (unsigned O = 0; O < outputCount(S); ++O)
        I.Lines.push_back(
            writtenElement(G, outputWrite(S, O), Build, Iter, P) + " = " +
            narrowed(G, outputRhs(S, O).Type,
                     valueText(G, outputRhs(S, O), Build, Iter, P)) +
            ";");
    } else {
      std::string R = registerIndex(G, Build, Iter, P);
      for (const Accumulator &A : M.Accs) {
        std::string Acc = A.Name + "[" + R + "]";
        std::string V = valueText(G, *A.Reduce->Operands[0], Build, Iter, P);
        ReduceOp Op = A.Reduce->reduceOp();
        // An 8- or 16-bit value taken into the int accumulator's max or
        // min as an int: OpenCL's max(int, short) is ambiguous.
        if (isNarrowInt(A.Reduce->Type) && Op != ReduceOp::Sum &&
            Op != ReduceOp::Prod)
          V = "((int)" + V + ")";
        if (Op == ReduceOp::Sum || Op == ReduceOp::Prod)
          I.Lines.push_back(Acc + (Op == ReduceOp::Sum ? " += " : " *= ") + V +
                            ";");
        else
          I.Lines.push_back(Acc + " = " +
                            combineText(Op, computeType(A.Reduce->Type), Acc,
                                        V) +
                            ";");
      }
    }
  } else if (Tuple == M.TupleWrite) {
    for (unsigned O = 0; O < outputCount(S); ++O) {
      const Expr &Rhs = outputRhs(S, O);
      std::string Out =
          writtenElement(G, outputWrite(S, O), Build, Iter, Piece::Write);
      assert((computeType(Rhs.Type) == Rhs.Type || !M.splitAcrossBlocks()) &&
             "no output of a type computed wider is split across blocks");
      if (G.InitOutputs)
        I.Lines.push_back(Out + " = " + identity(Rhs.reduceOp(), Rhs.Type) +
                          ";");
      else if (M.splitAcrossBlocks())
        I.Lines.push_back("loopy_atomic_add(&" + Out + ", " +
                          valueText(G, Rhs, Build, Iter, Piece::Write) + ");");
      else
        I.Lines.push_back(
            Out + " = " +
            narrowed(G, Rhs.Type,
                     valueText(G, Rhs, Build, Iter, Piece::Write)) +
            ";");
    }
  }
  return I;
}

} // namespace loopy
