//===- LiftAccess.cpp - Array elements, pointers and subscripts -----------===//
#include "Lifter.h"

namespace loopy::extract {

namespace {

/// The polynomial an integer value stands for, if it is one.
std::optional<Poly> polyOf(const LExprPtr &E) {
  switch (E->K) {
  case LExpr::Kind::Poly:
    return E->P;
  case LExpr::Kind::Literal:
    if (E->Text.find_first_of(".eE") != std::string::npos)
      return std::nullopt;
    return Poly::constant(std::stol(E->Text));
  case LExpr::Kind::Cast:
    if (!isInteger(E->Type))
      return std::nullopt;
    return polyOf(E->Ops[0]);
  case LExpr::Kind::Unary:
    if (E->Text == "-")
      if (auto P = polyOf(E->Ops[0]))
        return -*P;
    return std::nullopt;
  case LExpr::Kind::Binary: {
    auto L = polyOf(E->Ops[0]), R = polyOf(E->Ops[1]);
    if (!L || !R)
      return std::nullopt;
    if (E->Text == "+")
      return *L + *R;
    if (E->Text == "-")
      return *L - *R;
    if (E->Text == "*")
      return *L * *R;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// The value of the integer constant expression \p E in the integers,
/// where C's conversions to unsigned types and its overflow do not wrap;
/// nullopt if that leaves 128 bits. Operators it does not know keep the
/// value Clang gives them.
std::optional<__int128> exactValue(const clang::Expr *E,
                                   const clang::ASTContext &Ctx) {
  using namespace clang;
  E = E->IgnoreParens();
  if (const auto *C = llvm::dyn_cast<CastExpr>(E)) {
    CastKind CK = C->getCastKind();
    if ((CK == CK_IntegralCast || CK == CK_NoOp || CK == CK_LValueToRValue) &&
        C->getSubExpr()->getType()->isIntegerType())
      return exactValue(C->getSubExpr(), Ctx);
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E);
      U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)) {
    std::optional<__int128> V = exactValue(U->getSubExpr(), Ctx);
    if (V && U->getOpcode() == UO_Minus)
      return -*V;
    return V;
  }
  if (const auto *B = llvm::dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul) {
      std::optional<__int128> L = exactValue(B->getLHS(), Ctx);
      std::optional<__int128> R = exactValue(B->getRHS(), Ctx);
      if (!L || !R)
        return std::nullopt;
      __int128 V;
      bool Over = Op == BO_Add   ? __builtin_add_overflow(*L, *R, &V)
                  : Op == BO_Sub ? __builtin_sub_overflow(*L, *R, &V)
                                 : __builtin_mul_overflow(*L, *R, &V);
      if (Over)
        return std::nullopt;
      return V;
    }
  }
  if (const auto *D = llvm::dyn_cast<DeclRefExpr>(E))
    if (const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl()))
      if (const Expr *Init = V->getAnyInitializer();
          Init && Init->getType()->isIntegerType() &&
          V->getType().isConstQualified())
        return exactValue(Init, Ctx);
  Expr::EvalResult Res;
  if (E->isValueDependent() || !E->EvaluateAsInt(Res, Ctx))
    return std::nullopt;
  const llvm::APSInt &I = Res.Val.getInt();
  if (I.getBitWidth() > 64)
    return std::nullopt;
  return I.isSigned() ? static_cast<__int128>(I.getSExtValue())
                      : static_cast<__int128>(I.getZExtValue());
}

std::string int128Text(__int128 V) {
  if (V == 0)
    return "0";
  bool Negative = V < 0;
  unsigned __int128 U = Negative ? -static_cast<unsigned __int128>(V)
                                 : static_cast<unsigned __int128>(V);
  std::string S;
  for (; U; U /= 10)
    S.insert(S.begin(), static_cast<char>('0' + static_cast<int>(U % 10)));
  return Negative ? "-" + S : S;
}

} // namespace

ElementRef Lifter::element(const clang::Expr *E) {
  using namespace clang;
  E = skipWrappers(E);
  if (llvm::isa<CXXOperatorCallExpr, CXXMemberCallExpr>(E))
    classAccess(E);
  if (const auto *A = llvm::dyn_cast<ArraySubscriptExpr>(E)) {
    ElementRef ER = pointer(A->getBase());
    ER.Levels.back() = ER.Levels.back() + subscript(A->getIdx());
    checkOffset(ER.Levels.back(), E);
    return ER;
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return pointer(U->getSubExpr());
  if (const auto *D = llvm::dyn_cast<DeclRefExpr>(E))
    if (const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl());
        V && V->getType()->isArrayType() && !isLocal(V))
      return {arrayFor(V, E->getSourceRange()), {}};
  if (llvm::isa<MemberExpr>(E))
    exprNotLifted(E, "struct and class members cannot be lifted; copy the "
                     "member into a variable before the loop nest");
  R.error(E->getSourceRange(), msg::UnresolvedPointer)
      << text(E) << "only array arguments and the pointers derived from them "
                    "can be accessed";
  throw LiftFailed();
}

ElementRef Lifter::pointerVar(const clang::VarDecl *V, const clang::Expr *Use) {
  auto Local = PointerLocals.find(V);
  if (Local != PointerLocals.end())
    return pointer(Local->second);
  if (isLocal(V) || !V->getType()->isPointerType()) {
    R.error(Use->getSourceRange(), msg::UnresolvedPointer)
        << text(Use) << "it is not a pointer argument";
    throw LiftFailed();
  }
  return {arrayFor(V, Use->getSourceRange()), {Poly()}};
}

ElementRef Lifter::pointer(const clang::Expr *E) {
  using namespace clang;
  E = E->IgnoreParens();
  if (const auto *C = llvm::dyn_cast<CastExpr>(E)) {
    if (C->getCastKind() == CK_ArrayToPointerDecay) {
      ElementRef ER = element(C->getSubExpr());
      ER.Levels.push_back(Poly());
      return ER;
    }
    if (C->getCastKind() == CK_NoOp)
      return pointer(C->getSubExpr());
    if (C->getCastKind() == CK_LValueToRValue) {
      const Expr *Sub = C->getSubExpr()->IgnoreParens();
      if (const auto *D = llvm::dyn_cast<DeclRefExpr>(Sub))
        if (const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl()))
          return pointerVar(V, E);
      // A pointer loaded from memory: name the array of pointers.
      const Expr *Base = Sub;
      while (const auto *A = llvm::dyn_cast<ArraySubscriptExpr>(Base))
        Base = A->getBase()->IgnoreParenImpCasts();
      if (const auto *D = llvm::dyn_cast<DeclRefExpr>(Base)) {
        R.error(E->getSourceRange(), msg::PointerToPointer) << D->getDecl()->getName();
        R.note(D->getDecl()->getLocation(), msg::DeclaredHere)
            << D->getDecl()->getName();
        throw LiftFailed();
      }
      R.error(E->getSourceRange(), msg::UnresolvedPointer)
          << text(E) << "it loads a pointer from memory";
      throw LiftFailed();
    }
    R.error(E->getSourceRange(), msg::UnresolvedPointer)
        << text(E) << "it converts between pointer types";
    throw LiftFailed();
  }
  if (const auto *B = llvm::dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    bool PtrLeft = B->getLHS()->getType()->isPointerType();
    ElementRef ER = pointer(PtrLeft ? B->getLHS() : B->getRHS());
    Poly Offset = subscript(PtrLeft ? B->getRHS() : B->getLHS());
    ER.Levels.back() = B->getOpcode() == BO_Add ? ER.Levels.back() + Offset
                                                : ER.Levels.back() - Offset;
    checkOffset(ER.Levels.back(), E);
    return ER;
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return element(U->getSubExpr());
  R.error(E->getSourceRange(), msg::UnresolvedPointer)
      << text(E) << "only a pointer argument plus or minus an affine offset, "
                    "or the address of an element, can be resolved";
  throw LiftFailed();
}

void Lifter::checkOffset(const Poly &P, const clang::Expr *E) {
  if (P.overflowed())
    exprNotLifted(E, "the constant terms of its subscript overflow a signed "
                     "64-bit integer");
}

Poly Lifter::subscript(const clang::Expr *E) {
  return poly(E, "subscript", true);
}

Poly Lifter::poly(const clang::Expr *E, const char *What, bool AllowProducts) {
  PolyInfo I;
  std::optional<Poly> P = tryPoly(E, I);
  if (!P && I.BadConstant) {
    R.error(I.At->getSourceRange(), msg::ExprNotLifted) << text(I.At) << I.Why;
    throw LiftFailed();
  }
  if (!P) {
    R.error(I.At->getSourceRange(), msg::NotAffine) << What << text(E) << I.Why;
    throw LiftFailed();
  }
  const clang::BinaryOperator *Product =
      AllowProducts ? I.IndexProduct : (P->degree() > 1 ? I.Product : nullptr);
  if (Product) {
    R.error(Product->getSourceRange(), msg::NotAffine)
        << What << text(E)
        << "it multiplies '" + text(Product->getLHS()) + "' by '" +
               text(Product->getRHS()) + "'";
    throw LiftFailed();
  }
  return *P;
}

std::optional<Poly> Lifter::tryPoly(const clang::Expr *E, PolyInfo &I) {
  using namespace clang;
  E = skipWrappers(E);
  auto Fail = [&](const Expr *At, std::string Why) -> std::optional<Poly> {
    I.At = At;
    I.Why = std::move(Why);
    return std::nullopt;
  };
  if (!E->getType()->isIntegerType())
    return Fail(E, E->getType()->isRealFloatingType()
                       ? "it is a floating-point value"
                       : "it is not an integer");
  auto BadConstant = [&](const Expr *At, std::string Why) {
    I.BadConstant = true;
    return Fail(At, std::move(Why));
  };
  if (E->isPRValue() && !E->isValueDependent()) {
    Expr::EvalResult Res;
    if (E->EvaluateAsInt(Res, Ctx)) {
      // C's value, against the value in the integers that bounds and
      // subscripts are lifted to: they differ where C wraps around.
      const llvm::APSInt &CV = Res.Val.getInt();
      std::optional<__int128> Exact = exactValue(E, Ctx);
      __int128 Value = CV.isSigned() ? static_cast<__int128>(CV.getSExtValue())
                                     : static_cast<__int128>(CV.getZExtValue());
      if (!Exact || *Exact != Value)
        return BadConstant(
            E, "it is " + int128Text(Value) + " in C" +
                   (Exact ? " but " + int128Text(*Exact) + " in the integers"
                          : "") +
                   ", since " +
                   (E->getType()->isUnsignedIntegerType()
                        ? "unsigned arithmetic wraps around"
                        : "the arithmetic overflows its type") +
                   "; bounds and subscripts are lifted as integers that do "
                   "not wrap: write it with a signed type that holds its "
                   "value");
      if (Value > INT64_MAX || Value <= INT64_MIN)
        return BadConstant(E, "it is " + int128Text(Value) +
                                  ", outside -(2^63 - 1) .. 2^63 - 1, the "
                                  "values that lifted bounds and subscripts "
                                  "hold");
      return Poly::constant(static_cast<long>(Value));
    }
  }
  if (const auto *C = llvm::dyn_cast<CastExpr>(E)) {
    CastKind CK = C->getCastKind();
    if (CK == CK_LValueToRValue || CK == CK_IntegralCast || CK == CK_NoOp)
      return tryPoly(C->getSubExpr(), I);
    return Fail(E, "it converts a floating-point value to an integer");
  }
  if (const auto *B = llvm::dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Div || Op == BO_Rem)
      return Fail(E, "division and remainder cannot be lifted here");
    if (Op != BO_Add && Op != BO_Sub && Op != BO_Mul)
      return Fail(E, "only '+', '-' and '*' can be lifted here");
    std::optional<Poly> L = tryPoly(B->getLHS(), I);
    if (!L)
      return std::nullopt;
    std::optional<Poly> Rp = tryPoly(B->getRHS(), I);
    if (!Rp)
      return std::nullopt;
    Poly P = Op == BO_Add ? *L + *Rp : Op == BO_Sub ? *L - *Rp : *L * *Rp;
    if (P.overflowed() && !L->overflowed() && !Rp->overflowed())
      return BadConstant(E, "its constant terms overflow a signed 64-bit "
                            "integer");
    if (Op != BO_Mul)
      return P;
    if (P.degree() > 1 && !I.Product)
      I.Product = B;
    for (const auto &Term : P.terms()) {
      unsigned Indices = 0;
      for (unsigned Id : Term.first)
        Indices += K.Symbols[Id].K == Symbol::Kind::Index;
      if (Indices > 1 && !I.IndexProduct)
        I.IndexProduct = B;
    }
    return P;
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) {
      std::optional<Poly> P = tryPoly(U->getSubExpr(), I);
      if (P && U->getOpcode() == UO_Minus) {
        Poly N = -*P;
        if (N.overflowed() && !P->overflowed())
          return BadConstant(E, "its constant terms overflow a signed 64-bit "
                                "integer");
        return N;
      }
      return P;
    }
    if (U->getOpcode() == UO_Deref)
      return Fail(E, "it reads memory, so it depends on the data (indirect "
                     "access)");
    return Fail(E, "only '+', '-' and '*' can be lifted here");
  }
  if (const auto *D = llvm::dyn_cast<DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl());
    if (!V)
      return Fail(E, "it is not a variable");
    if (std::optional<unsigned> L = loopOf(V))
      return Poly::symbol(K.Loops[*L].Index);
    if (isLocal(V)) {
      if (!Frames.empty()) {
        auto S = Frames.back().Scalars.find(V);
        // A failed statement set it; its error is reported.
        if (S != Frames.back().Scalars.end() && S->second.Poisoned)
          throw LiftFailed();
        if (S != Frames.back().Scalars.end() && S->second.Value &&
            !S->second.Undefined)
          if (std::optional<Poly> P = polyOf(S->second.Value))
            return P;
      }
      return Fail(E, "'" + V->getName().str() +
                         "' is not an affine function of the loop indices "
                         "here");
    }
    return Poly::symbol(paramFor(V));
  }
  if (llvm::isa<ArraySubscriptExpr>(E))
    return Fail(E, "it reads memory, so it depends on the data (indirect "
                   "access)");
  if (const auto *C = llvm::dyn_cast<CallExpr>(E))
    return Fail(E, "it calls '" +
                       (C->getDirectCallee()
                            ? C->getDirectCallee()->getNameAsString()
                            : text(C->getCallee())) +
                       "'");
  return Fail(E, "only integer indices, parameters and constants can appear "
                 "here");
}

} // namespace loopy::extract
