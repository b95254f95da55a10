//===- LiftExpr.cpp - Values, subscripts and pointers ---------------------===//
#include "Lifter.h"

#include "clang/Lex/Lexer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace loopy::extract {

namespace {

/// The shortest spelling that reads back as the same value of type \p T.
std::string floatText(const llvm::APFloat &F, DType T) {
  bool Single = T == DType::F32;
  double V = Single ? static_cast<double>(F.convertToFloat()) : F.convertToDouble();
  char Buf[40];
  if (V == std::floor(V) && std::fabs(V) < 1e15) {
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
    return Buf;
  }
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Precision, V);
    double Back = std::strtod(Buf, nullptr);
    if (Single ? static_cast<float>(Back) == static_cast<float>(V) : Back == V)
      break;
  }
  std::string S = Buf;
  return S;
}

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

/// The .loop function for a C math function, and its number of arguments.
std::optional<std::pair<std::string, unsigned>>
mathFunction(const clang::FunctionDecl *F, const clang::SourceManager &SM) {
  static const std::map<std::string, std::pair<std::string, unsigned>> Fns = {
      {"sqrt", {"sqrt", 1}}, {"exp", {"exp", 1}},   {"log", {"log", 1}},
      {"sin", {"sin", 1}},   {"cos", {"cos", 1}},   {"tanh", {"tanh", 1}},
      {"pow", {"pow", 2}},   {"fma", {"fma", 3}},   {"fabs", {"abs", 1}},
      {"abs", {"abs", 1}},   {"labs", {"abs", 1}},  {"llabs", {"abs", 1}},
      {"fmin", {"min", 2}},  {"fmax", {"max", 2}},  {"min", {"min", 2}},
      {"max", {"max", 2}}};
  if (!F->getIdentifier())
    return std::nullopt;
  if (!F->getBuiltinID() && !F->isInStdNamespace() &&
      !SM.isInSystemHeader(F->getLocation()))
    return std::nullopt;
  std::string N = F->getName().str();
  if (N.rfind("__builtin_", 0) == 0)
    N = N.substr(10);
  if (!Fns.count(N) && !N.empty() && (N.back() == 'f' || N.back() == 'l') &&
      Fns.count(N.substr(0, N.size() - 1)))
    N.pop_back();
  auto It = Fns.find(N);
  if (It == Fns.end())
    return std::nullopt;
  return It->second;
}

/// \p E without parentheses, temporaries and conversions that change
/// nothing but constness.
const clang::Expr *skipWrappers(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *F = llvm::dyn_cast<clang::FullExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = llvm::dyn_cast<clang::ImplicitCastExpr>(E);
             C && C->getCastKind() == clang::CK_NoOp)
      E = C->getSubExpr();
    else
      return E;
  }
}

[[noreturn]] void classAccess(Reporter &R, const clang::Expr *E,
                              const std::string &Text) {
  R.error(E->getSourceRange(), msg::ExprNotLifted)
      << Text << "it calls a member or operator function of a class; pass a "
                 "pointer to the elements, such as 'v.data()'";
  throw LiftFailed();
}

} // namespace

std::string Lifter::text(clang::SourceRange Range) const {
  clang::CharSourceRange CR = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  std::string S =
      clang::Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
  // One line: runs of white space become one space.
  std::string Out;
  for (char C : S) {
    bool Space = C == ' ' || C == '\n' || C == '\t' || C == '\r';
    if (Space && (Out.empty() || Out.back() == ' '))
      continue;
    Out += Space ? ' ' : C;
  }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out;
}

bool Lifter::sameExpr(const clang::Expr *A, const clang::Expr *B) const {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, true);
  return IA == IB;
}

void Lifter::exprNotLifted(const clang::Expr *E, const std::string &Why) {
  R.error(E->getSourceRange(), msg::ExprNotLifted) << text(E) << Why;
  throw LiftFailed();
}

std::optional<DType> Lifter::dtypeOf(clang::QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isBooleanType())
    return DType::Bool;
  const auto *B = T->getAs<clang::BuiltinType>();
  if (!B)
    return std::nullopt;
  if (B->getKind() == clang::BuiltinType::Float)
    return DType::F32;
  if (B->getKind() == clang::BuiltinType::Double)
    return DType::F64;
  if (B->isInteger()) {
    uint64_t Bits = Ctx.getTypeSize(T);
    if (Bits == 32)
      return DType::I32;
    if (Bits == 64)
      return DType::I64;
  }
  return std::nullopt;
}

DType Lifter::requireDType(clang::QualType T, const clang::Expr *E) {
  if (std::optional<DType> D = dtypeOf(T))
    return *D;
  R.error(E->getSourceRange(), msg::UnsupportedType) << text(E) << T;
  throw LiftFailed();
}

std::optional<LExprPtr> Lifter::constant(const clang::Expr *E) {
  if (E->isValueDependent() || E->getType()->isBooleanType() ||
      !E->isPRValue() || E->HasSideEffects(Ctx))
    return std::nullopt;
  std::optional<DType> T = dtypeOf(E->getType());
  clang::Expr::EvalResult Res;
  if (!T || !E->EvaluateAsRValue(Res, Ctx) || Res.HasSideEffects)
    return std::nullopt;
  if (Res.Val.isInt()) {
    const llvm::APSInt &I = Res.Val.getInt();
    if (!I.isSignedIntN(64) || (I.isUnsigned() && I.isNegative()))
      return std::nullopt;
    return makeLiteral(std::to_string(I.getExtValue()), *T);
  }
  if (Res.Val.isFloat()) {
    const llvm::APFloat &F = Res.Val.getFloat();
    if (F.isInfinity())
      return makeInf(F.isNegative(), *T);
    if (F.isNaN())
      exprNotLifted(E, "it is not a number (NaN)");
    return makeLiteral(floatText(F, *T), *T);
  }
  return std::nullopt;
}

LExprPtr Lifter::symbolValue(unsigned Id, clang::QualType T) {
  return castTo(makePoly(Poly::symbol(Id)), *dtypeOf(T));
}

LExprPtr Lifter::value(const clang::Expr *E) {
  using namespace clang;
  E = skipWrappers(E);
  if (const auto *C = llvm::dyn_cast<ConditionalOperator>(E))
    return conditional(C);
  if (E->isGLValue())
    return lvalueRead(E);
  if (std::optional<LExprPtr> C = constant(E))
    return *C;
  DType T = requireDType(E->getType(), E);
  if (isInteger(T) && !E->HasSideEffects(Ctx)) {
    PolyInfo I;
    if (std::optional<Poly> P = tryPoly(E, I))
      return castTo(makePoly(*P), T);
  }
  if (const auto *C = llvm::dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_LValueToRValue:
      return value(C->getSubExpr());
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast:
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean:
      return castTo(value(C->getSubExpr()), T);
    default:
      exprNotLifted(E, "it converts between pointer or class types");
    }
  }
  if (const auto *B = llvm::dyn_cast<BinaryOperator>(E)) {
    static const std::map<BinaryOperatorKind, const char *> Ops = {
        {BO_Add, "+"}, {BO_Sub, "-"},  {BO_Mul, "*"},  {BO_Div, "/"},
        {BO_Rem, "%"}, {BO_LT, "<"},   {BO_GT, ">"},   {BO_LE, "<="},
        {BO_GE, ">="}, {BO_EQ, "=="},  {BO_NE, "!="},  {BO_LAnd, "&&"},
        {BO_LOr, "||"}};
    if (B->isAssignmentOp())
      exprNotLifted(E, "an assignment inside an expression cannot be lifted; "
                       "assign in a statement of its own");
    if (B->getOpcode() == BO_Comma)
      exprNotLifted(E, "the comma operator cannot be lifted; use separate "
                       "statements");
    auto Op = Ops.find(B->getOpcode());
    if (Op == Ops.end())
      exprNotLifted(E, "bitwise operators and shifts have no .loop "
                       "counterpart");
    LExprPtr L = value(B->getLHS()), Rv = value(B->getRHS());
    if (B->isLogicalOp())
      return makeBinary(Op->second, truthValue(L), truthValue(Rv));
    if (B->isComparisonOp()) {
      // A comparison (Bool here) meets a number only after a conversion.
      if (L->Type == DType::Bool && Rv->Type != DType::Bool)
        L = castTo(L, Rv->Type);
      else if (Rv->Type == DType::Bool && L->Type != DType::Bool)
        Rv = castTo(Rv, L->Type);
      return makeBinary(Op->second, L, Rv);
    }
    return makeBinary(Op->second, castTo(L, T), castTo(Rv, T));
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Minus:
      return makeUnary("-", castTo(value(U->getSubExpr()), T));
    case UO_Plus:
      return castTo(value(U->getSubExpr()), T);
    case UO_LNot:
      return makeUnary("!", truthValue(value(U->getSubExpr())));
    case UO_Not:
      exprNotLifted(E, "bitwise operators and shifts have no .loop "
                       "counterpart");
    default:
      exprNotLifted(E, "an increment inside an expression cannot be lifted; "
                       "increment in a statement of its own");
    }
  }
  if (llvm::isa<CXXOperatorCallExpr, CXXMemberCallExpr>(E))
    classAccess(R, E, text(E));
  if (const auto *C = llvm::dyn_cast<CallExpr>(E))
    return call(C);
  if (const auto *IL = llvm::dyn_cast<InitListExpr>(E); IL && IL->getNumInits() == 1)
    return castTo(value(IL->getInit(0)), T);
  if (llvm::isa<ImplicitValueInitExpr>(E))
    return makeLiteral("0", T);
  exprNotLifted(E, "only arithmetic on array elements, scalars, indices and "
                   "constants can be lifted");
}

LExprPtr Lifter::conditional(const clang::ConditionalOperator *C) {
  using namespace clang;
  DType T = requireDType(C->getType(), C);
  LExprPtr A = castTo(value(C->getTrueExpr()), T);
  LExprPtr B = castTo(value(C->getFalseExpr()), T);
  // a > b ? a : b is max(a, b); the other orders likewise.
  if (const auto *Cmp =
          llvm::dyn_cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
      Cmp && Cmp->isRelationalOp()) {
    bool Same = sameExpr(Cmp->getLHS(), C->getTrueExpr()) &&
                sameExpr(Cmp->getRHS(), C->getFalseExpr());
    bool Swapped = sameExpr(Cmp->getLHS(), C->getFalseExpr()) &&
                   sameExpr(Cmp->getRHS(), C->getTrueExpr());
    bool Greater = Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE;
    if (Same || Swapped)
      return makeCall(Same == Greater ? "max" : "min", {A, B}, T);
  }
  return makeSelect(truthValue(value(C->getCond())), A, B);
}

LExprPtr Lifter::lvalueRead(const clang::Expr *E) {
  using namespace clang;
  E = skipWrappers(E);
  if (const auto *D = llvm::dyn_cast<DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl());
    if (!V)
      exprNotLifted(E, "only variables, array elements and constants can be "
                       "read");
    if (std::optional<unsigned> L = loopOf(V))
      return symbolValue(K.Loops[*L].Index, V->getType());
    if (PointerLocals.count(V) || V->getType()->isPointerType() ||
        V->getType()->isArrayType())
      exprNotLifted(E, "pointers can only be subscripted or dereferenced");
    if (isLocal(V)) {
      StoreTarget T;
      T.Var = V;
      T.Loc.Var = V;
      T.Type = requireDType(V->getType(), E);
      return load(T, E->getSourceRange());
    }
    if (const Expr *Init = V->getAnyInitializer();
        Init && V->getType().isConstQualified())
      if (std::optional<LExprPtr> C = constant(Init))
        return castTo(*C, requireDType(V->getType(), E));
    DType T = requireDType(V->getType(), E);
    if (isInteger(T))
      return symbolValue(paramFor(V), V->getType());
    if (T == DType::Bool)
      exprNotLifted(E, "a kernel has no boolean arguments; pass an int");
    return makeScalar(scalarFor(V, T), T);
  }
  if (llvm::isa<ArraySubscriptExpr>(E) ||
      (llvm::isa<UnaryOperator>(E) &&
       llvm::cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    ElementRef ER = element(E);
    const ArrayArg &A = K.Arrays[ER.Array];
    if (ER.Levels.size() != A.Levels)
      exprNotLifted(E, "it reads a whole row; subscript every level of the "
                       "array");
    return readElement({nullptr, ER.Array, ER.Levels}, A.Elem, E->getSourceRange());
  }
  if (llvm::isa<CXXOperatorCallExpr, CXXMemberCallExpr>(E))
    classAccess(R, E, text(E));
  if (const auto *C = llvm::dyn_cast<CallExpr>(E))
    return call(C);
  if (llvm::isa<MemberExpr>(E))
    exprNotLifted(E, "struct and class members cannot be lifted; copy the "
                     "member into a variable before the loop nest");
  exprNotLifted(E, "only variables, array elements and constants can be read");
}

LExprPtr Lifter::call(const clang::CallExpr *C) {
  const clang::FunctionDecl *F = C->getDirectCallee();
  auto Fn = F ? mathFunction(F, SM) : std::nullopt;
  if (!Fn || Fn->second != C->getNumArgs()) {
    R.error(C->getSourceRange(), msg::CallNotLifted)
        << (F ? F->getNameAsString() : text(C->getCallee()));
    throw LiftFailed();
  }
  DType T = requireDType(C->getType(), C);
  std::vector<LExprPtr> Args;
  for (const clang::Expr *A : C->arguments())
    Args.push_back(castTo(value(A), T));
  return makeCall(Fn->first, std::move(Args), T);
}

ElementRef Lifter::element(const clang::Expr *E) {
  using namespace clang;
  E = skipWrappers(E);
  if (llvm::isa<CXXOperatorCallExpr, CXXMemberCallExpr>(E))
    classAccess(R, E, text(E));
  if (const auto *A = llvm::dyn_cast<ArraySubscriptExpr>(E)) {
    ElementRef ER = pointer(A->getBase());
    ER.Levels.back() = ER.Levels.back() + subscript(A->getIdx());
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

Poly Lifter::subscript(const clang::Expr *E) {
  return poly(E, "subscript", true);
}

Poly Lifter::poly(const clang::Expr *E, const char *What, bool AllowProducts) {
  PolyInfo I;
  std::optional<Poly> P = tryPoly(E, I);
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
  if (E->isPRValue() && !E->isValueDependent()) {
    Expr::EvalResult Res;
    if (E->EvaluateAsInt(Res, Ctx))
      return Poly::constant(Res.Val.getInt().getExtValue());
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
    if (Op != BO_Mul)
      return Op == BO_Add ? *L + *Rp : *L - *Rp;
    Poly P = *L * *Rp;
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
      if (P && U->getOpcode() == UO_Minus)
        return -*P;
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
