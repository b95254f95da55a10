//===- KernelHash.cpp - Content hash of a checked kernel ------------------===//
#include "loopy/Tuner/KernelHash.h"

#include "loopy/IR/IRPrinter.h"
#include "loopy/Support/Hash.h"

#include <bit>
#include <cassert>
#include <cstdint>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace loopy {

namespace {

/// Bumped whenever the canonical text changes shape, so that old database
/// entries are not matched by accident.
constexpr const char *CanonicalFormat = "loopy-kernel 1";

/// The bits of \p V in hex: exact, and independent of how the literal was
/// spelled and of the locale.
std::string floatBits(double V) {
  std::ostringstream OS;
  OS.imbue(std::locale::classic());
  OS << "0x" << std::hex << std::bit_cast<uint64_t>(V);
  return OS.str();
}

/// A typed prefix form of \p E. A read names its access by position in
/// Statement::Reads, whose relation the IR printer prints.
void printTree(std::ostream &OS, const Kernel &K, const Expr &E) {
  auto Operands = [&](size_t From) {
    for (size_t I = From; I < E.Operands.size(); ++I) {
      OS << " ";
      printTree(OS, K, *E.Operands[I]);
    }
  };
  switch (E.Kind) {
  case ExprKind::IntConst:
    OS << E.IntValue;
    break;
  case ExprKind::FloatConst:
    OS << floatBits(E.FloatValue);
    break;
  case ExprKind::Index:
    OS << "index " << K.IndexNames.at(E.Id);
    break;
  case ExprKind::Param:
    OS << "param " << K.ParamNames.at(E.Id);
    break;
  case ExprKind::Scalar:
    OS << "scalar " << K.Args.at(E.Id).Name;
    break;
  case ExprKind::Read:
    OS << "read " << E.AccessId;
    break;
  case ExprKind::Unary:
    OS << "(" << (E.unaryOp() == UnaryOp::Neg ? "neg" : "not");
    Operands(0);
    OS << ")";
    break;
  case ExprKind::Binary:
    OS << "(" << binaryOpSpelling(E.binaryOp());
    Operands(0);
    OS << ")";
    break;
  case ExprKind::Call:
    OS << "(" << mathFnName(E.mathFn());
    Operands(0);
    OS << ")";
    break;
  case ExprKind::Cast:
    OS << "(cast";
    Operands(0);
    OS << ")";
    break;
  case ExprKind::Select:
    OS << "(select";
    Operands(0);
    OS << ")";
    break;
  case ExprKind::Reduce:
    OS << "(" << reduceOpName(E.reduceOp()) << " (";
    for (size_t I = 0; I < E.ReduceIndices.size(); ++I)
      OS << (I ? " " : "") << K.IndexNames.at(E.ReduceIndices[I]);
    OS << ")";
    Operands(0);
    OS << ")";
    break;
  }
  OS << ":" << dtypeName(E.Type);
}

} // namespace

std::string canonicalKernelText(const Kernel &K) {
  if (!K.Fixed.empty())
    throw std::invalid_argument(
        "cannot hash kernel '" + K.Name +
        "' built with fixed parameter values (" + fixedParamsText(K.Fixed) +
        "): isl has folded them into its sets; hash the kernel built "
        "without -D values (CheckedSource::parametricKernel gives it)");
  // The IR printer's text is isl's and the printer's own, except for the
  // statement lines, which keep the source spelling of subscripts and
  // literals: those are replaced by the typed tree.
  std::ostringstream Printed;
  Printed.imbue(std::locale::classic());
  printKernel(Printed, K);
  std::istringstream Lines(Printed.str());
  std::ostringstream OS;
  OS.imbue(std::locale::classic());
  OS << CanonicalFormat << "\n";
  size_t Stmt = 0;
  for (std::string Line; std::getline(Lines, Line);) {
    if (Line.rfind("  statement ", 0) != 0) {
      OS << Line << "\n";
      continue;
    }
    const Statement &S = K.Stmts.at(Stmt++);
    OS << "  statement " << S.Name << ": ";
    printTree(OS, K, *S.Rhs);
    OS << "\n";
  }
  assert(Stmt == K.Stmts.size() && "a statement line per statement");
  return OS.str();
}

std::string kernelHash(const Kernel &K) {
  return sha256Hex(canonicalKernelText(K));
}

std::string fixedParamsText(const std::map<std::string, long> &Fixed) {
  std::string S;
  for (const auto &[Name, Value] : Fixed)
    S += (S.empty() ? "" : ",") + Name + "=" + std::to_string(Value);
  return S;
}

} // namespace loopy
