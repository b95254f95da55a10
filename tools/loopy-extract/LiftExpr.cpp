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

} // namespace

const clang::Expr *Lifter::skipWrappers(const clang::Expr *E) {
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

void Lifter::classAccess(const clang::Expr *E) {
  R.error(E->getSourceRange(), msg::ExprNotLifted)
      << text(E) << "it calls a member or operator function of a class; pass a "
                 "pointer to the elements, such as 'v.data()'";
  throw LiftFailed();
}

std::string Lifter::text(clang::SourceRange Range) const {
  clang::CharSourceRange CR = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  // Part of a macro expansion: quote the macro's use.
  if (CR.isInvalid())
    CR = clang::Lexer::makeFileCharRange(SM.getExpansionRange(Range), SM,
                                         Ctx.getLangOpts());
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
    // char, short and their unsigned kinds: C computes with them in int,
    // and the implicit casts around them say so.
    if (Bits == 8)
      return B->isSignedInteger() ? DType::I8 : DType::U8;
    if (Bits == 16)
      return B->isSignedInteger() ? DType::I16 : DType::U16;
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

void Lifter::rejectSideEffects(const clang::Expr *E) {
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
      B && B->isAssignmentOp())
    exprNotLifted(E, "an assignment inside an expression cannot be lifted; "
                     "assign in a statement of its own");
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->isIncrementDecrementOp())
    exprNotLifted(E, "an increment inside an expression cannot be lifted; "
                     "increment in a statement of its own");
}

LExprPtr Lifter::value(const clang::Expr *E) {
  using namespace clang;
  E = skipWrappers(E);
  rejectSideEffects(E);
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
      break;
    }
  }
  if (llvm::isa<CXXOperatorCallExpr, CXXMemberCallExpr>(E))
    classAccess(E);
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
  rejectSideEffects(E);
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
    classAccess(E);
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

} // namespace loopy::extract
