//===- Accumulate.cpp - Accumulations recognized as reductions ------------===//
#include "Accumulate.h"

#include <algorithm>
#include <memory>

namespace loopy::extract {

namespace {

bool isOld(const LExprPtr &E, const LocKey &Loc) {
  return E->K == LExpr::Kind::Old && E->Loc == Loc;
}

bool mentions(const LExprPtr &E, const LocKey &Loc) {
  return containsOld(E, [&](const LocKey &L) { return L == Loc; });
}

/// The operands of a chain of one associative operator: a + b - c gives
/// {+a, +b, -c} for "+"; max(max(a, b), c) gives {a, b, c} for "max".
void flatten(const LExprPtr &E, const std::string &Op, bool Negated,
             std::vector<std::pair<LExprPtr, bool>> &Out) {
  bool Additive = Op == "+";
  if (E->K == LExpr::Kind::Binary && Additive &&
      (E->Text == "+" || E->Text == "-")) {
    flatten(E->Ops[0], Op, Negated, Out);
    flatten(E->Ops[1], Op, E->Text == "-" ? !Negated : Negated, Out);
    return;
  }
  if (Additive && E->K == LExpr::Kind::Unary && E->Text == "-") {
    flatten(E->Ops[0], Op, !Negated, Out);
    return;
  }
  if ((E->K == LExpr::Kind::Binary && Op == "*" && E->Text == "*") ||
      (E->K == LExpr::Kind::Call && E->Text == Op && E->Ops.size() == 2)) {
    flatten(E->Ops[0], Op, Negated, Out);
    flatten(E->Ops[1], Op, Negated, Out);
    return;
  }
  Out.push_back({E, Negated});
}

LExprPtr join(const std::string &Op, const LExprPtr &L, const LExprPtr &R) {
  if (Op == "max" || Op == "min")
    return makeCall(Op, {L, R}, L->Type);
  return makeBinary(Op, L, R);
}

} // namespace

std::optional<Accumulation> matchAccumulation(const LExprPtr &End,
                                              const LocKey &Loc) {
  static const std::pair<const char *, const char *> Forms[] = {
      {"+", "sum"}, {"*", "prod"}, {"max", "max"}, {"min", "min"}};
  for (const auto &[Op, Reduction] : Forms) {
    std::vector<std::pair<LExprPtr, bool>> Operands;
    flatten(End, Op, false, Operands);
    if (Operands.size() < 2)
      continue;
    int OldAt = -1;
    for (size_t I = 0; I < Operands.size(); ++I) {
      if (isOld(Operands[I].first, Loc) && !Operands[I].second && OldAt < 0)
        OldAt = static_cast<int>(I);
      else if (mentions(Operands[I].first, Loc))
        return std::nullopt;
    }
    if (OldAt < 0)
      continue;
    Operands.erase(Operands.begin() + OldAt);
    Accumulation A;
    A.Op = Reduction;
    // Sum of subtracted terms only: old - sum(k, e), not old + sum(k, -e).
    bool AllNegated = true;
    for (const auto &Operand : Operands)
      AllNegated &= Operand.second;
    A.Subtracted = AllNegated;
    for (const auto &[Operand, Negated] : Operands) {
      bool Minus = Negated && !AllNegated;
      if (!A.Term)
        A.Term = Minus ? makeUnary("-", Operand) : Operand;
      else if (Op == std::string("+"))
        A.Term = makeBinary(Minus ? "-" : "+", A.Term, Operand);
      else
        A.Term = join(Op, A.Term, Operand);
    }
    return A;
  }
  return std::nullopt;
}

LExprPtr combineAccumulation(const Accumulation &A, LExprPtr Before,
                             LExprPtr Reduced) {
  if (A.Op == "sum") {
    if (isZeroLiteral(Before))
      return A.Subtracted ? makeUnary("-", Reduced) : Reduced;
    return makeBinary(A.Subtracted ? "-" : "+", Before, Reduced);
  }
  if (A.Op == "prod")
    return isOneLiteral(Before) ? Reduced : makeBinary("*", Before, Reduced);
  bool Identity = Before->K == LExpr::Kind::Inf &&
                  (Before->Text == "-") == (A.Op == "max");
  return Identity ? Reduced : makeCall(A.Op, {Before, Reduced}, Reduced->Type);
}

namespace {

/// \p E as Factor * Sum (Factor null for a bare sum), if it is a sum or a
/// product with one.
bool scaledSum(const LExprPtr &E, LExprPtr &Factor, LExprPtr &Sum) {
  auto IsSum = [](const LExprPtr &X) {
    return X->K == LExpr::Kind::Reduce && X->Text == "sum";
  };
  if (IsSum(E)) {
    Factor = nullptr;
    Sum = E;
    return true;
  }
  if (E->K != LExpr::Kind::Binary || E->Text != "*")
    return false;
  for (int Side = 1; Side >= 0; --Side)
    if (IsSum(E->Ops[Side])) {
      Sum = E->Ops[Side];
      Factor = E->Ops[1 - Side];
      return true;
    }
  return false;
}

} // namespace

LExprPtr mergeSums(const LExprPtr &E) {
  if (!E)
    return E;
  std::vector<LExprPtr> Ops;
  bool Changed = false;
  for (const LExprPtr &Op : E->Ops) {
    Ops.push_back(mergeSums(Op));
    Changed |= Ops.back() != Op;
  }
  LExprPtr Self = E;
  if (Changed) {
    auto Copy = std::make_shared<LExpr>(*E);
    Copy->Ops = Ops;
    Self = Copy;
  }
  if (Self->K != LExpr::Kind::Binary ||
      (Self->Text != "+" && Self->Text != "-"))
    return Self;
  LExprPtr FL, SL, FR, SR;
  if (!scaledSum(Self->Ops[0], FL, SL) || !scaledSum(Self->Ops[1], FR, SR) ||
      SL->RedIndices != SR->RedIndices || SL->Type != SR->Type)
    return Self;
  for (unsigned Idx : SL->RedIndices)
    if ((FL && usesSymbol(FL, Idx)) || (FR && usesSymbol(FR, Idx)))
      return Self;
  auto Term = [](const LExprPtr &F, const LExprPtr &S) {
    return F ? makeBinary("*", F, S->Ops[0]) : S->Ops[0];
  };
  auto Merged = std::make_shared<LExpr>(*SL);
  Merged->Ops = {makeBinary(Self->Text, Term(FL, SL), Term(FR, SR))};
  Merged->Depth = std::min(SL->Depth, SR->Depth);
  return Merged;
}

} // namespace loopy::extract
