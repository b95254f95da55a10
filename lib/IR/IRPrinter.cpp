//===- IRPrinter.cpp - Stable textual form of the Kernel IR ---------------===//
#include "loopy/IR/IRPrinter.h"
#include "loopy/Support/Isl.h"


#include <ostream>
#include <sstream>

namespace loopy {

std::string islText(const isl::aff &A) {
  // The affine expression alone, in C syntax: "n + 1".
  return printC(A);
}

static int precedence(const Expr &E) {
  if (E.Kind != ExprKind::Binary)
    return E.Kind == ExprKind::Unary ? 7 : 8;
  switch (E.binaryOp()) {
  case BinaryOp::Or:
    return 1;
  case BinaryOp::And:
    return 2;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    return 3;
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
    return 4;
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 5;
  default:
    return 6;
  }
}

static std::string floatText(const Expr &E) {
  if (!E.Spelling.empty())
    return E.Spelling;
  std::ostringstream OS;
  OS.precision(17);
  OS << E.FloatValue;
  std::string S = OS.str();
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return S;
}

std::string printExpr(const Kernel &K, const Expr &E) {
  auto Sub = [&](const Expr &C, int MinPrec) {
    std::string S = printExpr(K, C);
    return precedence(C) < MinPrec ? "(" + S + ")" : S;
  };
  auto Join = [&](size_t From) {
    std::string S;
    for (size_t I = From; I < E.Operands.size(); ++I)
      S += (I > From ? ", " : "") + printExpr(K, *E.Operands[I]);
    return S;
  };
  switch (E.Kind) {
  case ExprKind::IntConst:
    return std::to_string(E.IntValue);
  case ExprKind::FloatConst:
    return floatText(E);
  case ExprKind::Index:
    return K.IndexNames[E.Id];
  case ExprKind::Param:
    return K.ParamNames[E.Id];
  case ExprKind::Scalar:
    return K.Args[E.Id].Name;
  case ExprKind::Read:
    return E.Spelling;
  case ExprKind::Unary:
    return (E.unaryOp() == UnaryOp::Neg ? "-" : "!") +
           Sub(*E.Operands[0], 7);
  case ExprKind::Binary: {
    int P = precedence(E);
    return Sub(*E.Operands[0], P) + " " + binaryOpSpelling(E.binaryOp()) +
           " " + Sub(*E.Operands[1], P + 1);
  }
  case ExprKind::Call:
    return std::string(mathFnName(E.mathFn())) + "(" + Join(0) + ")";
  case ExprKind::Cast:
    return std::string(dtypeName(E.Type)) + "(" + Join(0) + ")";
  case ExprKind::Select:
    return "select(" + Join(0) + ")";
  case ExprKind::Reduce: {
    std::string Idx;
    for (size_t I = 0; I < E.ReduceIndices.size(); ++I)
      Idx += (I ? ", " : "") + K.IndexNames[E.ReduceIndices[I]];
    if (E.ReduceIndices.size() > 1)
      Idx = "(" + Idx + ")";
    return std::string(reduceOpName(E.reduceOp())) + "(" + Idx + ", " +
           printExpr(K, *E.Operands[0]) + ")";
  }
  }
  return "?";
}

static std::string names(const Kernel &K, const std::vector<unsigned> &Pos) {
  if (Pos.empty())
    return "(none)";
  std::string S;
  for (size_t I = 0; I < Pos.size(); ++I)
    S += (I ? ", " : "") + K.IndexNames[Pos[I]];
  return S;
}

void printKernel(std::ostream &OS, const Kernel &K) {
  OS << "kernel " << K.Name << "\n";
  if (!K.ParamNames.empty()) {
    OS << "  params:";
    for (const std::string &P : K.ParamNames) {
      OS << " " << P;
      auto It = K.Fixed.find(P);
      if (It != K.Fixed.end())
        OS << "=" << It->second;
    }
    OS << "\n";
  }
  for (const Argument &A : K.Args) {
    if (A.Kind == ArgKind::Index)
      continue;
    OS << "  arg " << A.Name << ": ";
    if (A.Kind == ArgKind::Scalar) {
      OS << dtypeName(A.Type) << "\n";
      continue;
    }
    OS << argModeName(A.Mode) << " " << dtypeName(A.Type) << "[";
    for (size_t I = 0; I < A.Shape.size(); ++I)
      OS << (I ? ", " : "") << islText(A.Shape[I]);
    OS << "]";
    switch (A.Order) {
    case Layout::RowMajor:
      OS << " row_major";
      break;
    case Layout::ColMajor:
      OS << " col_major";
      break;
    case Layout::Strided:
      OS << " strides(";
      for (size_t I = 0; I < A.Strides.size(); ++I)
        OS << (I ? ", " : "") << islText(A.Strides[I]);
      OS << ")";
      break;
    }
    OS << "\n";
  }
  OS << "  context: " << K.Context << "\n";
  OS << "  domain: " << K.Domain << "\n";
  for (const Statement &S : K.Stmts) {
    OS << "  statement " << S.Name << ": " << S.Write.Spelling << " = "
       << printExpr(K, *S.Rhs) << "\n";
    OS << "    type: " << dtypeName(S.Rhs->Type) << "\n";
    OS << "    output indices: " << names(K, S.OutputIndices) << "\n";
    OS << "    reduction indices: " << names(K, S.ReductionIndices) << "\n";
    OS << "    domain: " << S.Domain << "\n";
    OS << "    write: " << S.Write.Relation << "\n";
    for (const Access &R : S.Reads)
      OS << "    read: " << R.Relation << "\n";
  }
}

} // namespace loopy
