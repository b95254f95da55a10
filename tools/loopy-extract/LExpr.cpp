//===- LExpr.cpp - .loop value expressions built from C expressions -------===//
#include "LExpr.h"

#include <cassert>

namespace loopy::extract {

namespace {

std::shared_ptr<LExpr> node(LExpr::Kind K, DType T) {
  auto E = std::make_shared<LExpr>();
  E->K = K;
  E->Type = T;
  return E;
}

bool isComparison(const std::string &Op) {
  return Op == "<" || Op == "<=" || Op == ">" || Op == ">=" || Op == "==" ||
         Op == "!=" || Op == "&&" || Op == "||";
}

} // namespace

LExprPtr makeLiteral(std::string Spelling, DType T) {
  auto E = node(LExpr::Kind::Literal, T);
  E->Text = std::move(Spelling);
  return E;
}

LExprPtr makeInf(bool Negative, DType T) {
  auto E = node(LExpr::Kind::Inf, T);
  E->Text.assign(1, Negative ? '-' : '+');
  return E;
}

LExprPtr makePoly(Poly P) {
  if (P.isConstant())
    return makeLiteral(std::to_string(P.constantTerm()), DType::I64);
  auto E = node(LExpr::Kind::Poly, DType::I64);
  E->P = std::move(P);
  return E;
}

LExprPtr makeScalar(unsigned Id, DType T) {
  auto E = node(LExpr::Kind::Scalar, T);
  E->Id = Id;
  return E;
}

LExprPtr makeRead(unsigned Array, std::vector<Poly> Subs, DType T,
                  clang::SourceRange Range) {
  auto E = node(LExpr::Kind::Read, T);
  E->Id = Array;
  E->Subs = std::move(Subs);
  E->Range = Range;
  return E;
}

LExprPtr makeUnary(std::string Op, LExprPtr Operand) {
  auto E = node(LExpr::Kind::Unary, Op == "!" ? DType::Bool : Operand->Type);
  E->Text = std::move(Op);
  E->Ops = {std::move(Operand)};
  return E;
}

LExprPtr makeBinary(std::string Op, LExprPtr L, LExprPtr R) {
  auto E = node(LExpr::Kind::Binary, isComparison(Op) ? DType::Bool : L->Type);
  E->Text = std::move(Op);
  E->Ops = {std::move(L), std::move(R)};
  return E;
}

LExprPtr makeCall(std::string Fn, std::vector<LExprPtr> Args, DType T) {
  auto E = node(LExpr::Kind::Call, T);
  E->Text = std::move(Fn);
  E->Ops = std::move(Args);
  return E;
}

LExprPtr makeSelect(LExprPtr C, LExprPtr T, LExprPtr F) {
  auto E = node(LExpr::Kind::Select, T->Type);
  E->Ops = {std::move(C), std::move(T), std::move(F)};
  return E;
}

LExprPtr makeReduce(std::string Op, unsigned Index, LExprPtr Body,
                    unsigned Depth, clang::SourceRange Range,
                    std::string Target) {
  auto E = node(LExpr::Kind::Reduce, Body->Type);
  E->Text = std::move(Op);
  E->RedIndices = {Index};
  E->Depth = Depth;
  E->Range = Range;
  E->Target = std::move(Target);
  E->Ops = {std::move(Body)};
  return E;
}

LExprPtr makeOld(LocKey L, DType T, clang::SourceRange Use) {
  auto E = node(LExpr::Kind::Old, T);
  E->Loc = std::move(L);
  E->Range = Use;
  return E;
}

LExprPtr castTo(LExprPtr E, DType T) {
  if (E->Type == T)
    return E;
  if (E->K == LExpr::Kind::Literal &&
      (isFloat(T) || E->Text.find_first_of(".eE") == std::string::npos)) {
    auto L = std::make_shared<LExpr>(*E);
    L->Type = T;
    return L;
  }
  // C narrows an index to `int`, or widens a comparison to `int`, before
  // converting it further; convert from the original instead.
  if (E->K == LExpr::Kind::Cast &&
      ((E->Ops[0]->Type == DType::I64 && E->Ops[0]->K == LExpr::Kind::Poly) ||
       E->Ops[0]->Type == DType::Bool))
    return castTo(E->Ops[0], T);
  if (T == DType::Bool)
    return truthValue(E);
  auto C = node(LExpr::Kind::Cast, T);
  C->Ops = {std::move(E)};
  return C;
}

LExprPtr truthValue(LExprPtr E) {
  if (E->Type == DType::Bool)
    return E;
  return makeBinary("!=", E, makeLiteral("0", E->Type));
}

bool isZeroLiteral(const LExprPtr &E) {
  if (E->K != LExpr::Kind::Literal)
    return false;
  return std::stod(E->Text) == 0.0;
}

bool isOneLiteral(const LExprPtr &E) {
  if (E->K != LExpr::Kind::Literal)
    return false;
  return std::stod(E->Text) == 1.0;
}

bool containsOld(const LExprPtr &E,
                 const std::function<bool(const LocKey &)> &Pred) {
  if (E->K == LExpr::Kind::Old && Pred(E->Loc))
    return true;
  for (const LExprPtr &Op : E->Ops)
    if (containsOld(Op, Pred))
      return true;
  return false;
}

bool usesSymbol(const LExprPtr &E, unsigned Id) {
  bool Found = false;
  walk(E, [&](const LExpr &N, const std::vector<unsigned> &) {
    if (N.K == LExpr::Kind::Poly && N.P.uses(Id))
      Found = true;
    for (const Poly &S : N.Subs)
      if (S.uses(Id))
        Found = true;
    for (unsigned R : N.RedIndices)
      if (R == Id)
        Found = true;
    if (N.K == LExpr::Kind::Old)
      for (const Poly &S : N.Loc.Subs)
        if (S.uses(Id))
          Found = true;
  });
  return Found;
}

LExprPtr substituteOld(const LExprPtr &E,
                       const std::function<LExprPtr(const LExprPtr &)> &Replace) {
  if (E->K == LExpr::Kind::Old)
    return Replace(E);
  if (E->Ops.empty())
    return E;
  auto Copy = std::make_shared<LExpr>(*E);
  bool Changed = false;
  for (LExprPtr &Op : Copy->Ops) {
    LExprPtr New = substituteOld(Op, Replace);
    Changed |= New != Op;
    Op = New;
  }
  return Changed ? Copy : E;
}

static void walkImpl(
    const LExprPtr &E, std::vector<unsigned> &Enclosing,
    const std::function<void(const LExpr &, const std::vector<unsigned> &)>
        &Visit) {
  Visit(*E, Enclosing);
  size_t Mark = Enclosing.size();
  if (E->K == LExpr::Kind::Reduce)
    Enclosing.insert(Enclosing.end(), E->RedIndices.begin(),
                     E->RedIndices.end());
  for (const LExprPtr &Op : E->Ops)
    walkImpl(Op, Enclosing, Visit);
  Enclosing.resize(Mark);
}

void walk(const LExprPtr &E,
          const std::function<void(const LExpr &,
                                   const std::vector<unsigned> &)> &Visit) {
  std::vector<unsigned> Enclosing;
  walkImpl(E, Enclosing, Visit);
}

bool sameValue(const LExprPtr &A, const LExprPtr &B) {
  if (A == B)
    return true;
  if (A->K != B->K || A->Type != B->Type || A->Text != B->Text ||
      !(A->P == B->P) || A->Id != B->Id || A->Subs != B->Subs ||
      A->RedIndices != B->RedIndices || A->Ops.size() != B->Ops.size() ||
      (A->K == LExpr::Kind::Old && !(A->Loc == B->Loc)))
    return false;
  for (size_t I = 0; I < A->Ops.size(); ++I)
    if (!sameValue(A->Ops[I], B->Ops[I]))
      return false;
  return true;
}

} // namespace loopy::extract
