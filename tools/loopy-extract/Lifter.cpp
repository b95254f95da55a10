//===- Lifter.cpp - Symbols, arguments and loop headers -------------------===//
#include "Lifter.h"
#include "PragmaExpr.h"

#include "clang/AST/Decl.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace loopy::extract {

namespace {

/// Names a .loop kernel or its isl text cannot use for an index or an
/// argument.
const std::set<std::string> &reservedNames() {
  static const std::set<std::string> Names = {
      "kernel", "domain", "assume", "index", "in", "out", "inout", "f16",
      "bf16", "f32", "f64", "i32", "i64", "sum", "prod", "max", "min",
      "select", "sqrt", "exp", "log", "sin", "cos", "tanh", "pow", "fma",
      "abs", "layout", "strides", "and", "or", "not", "exists", "mod",
      "floor", "ceil", "infty", "true", "false", "implies", "xor"};
  return Names;
}

const clang::VarDecl *declaredVar(const clang::Expr *E) {
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()))
    return llvm::dyn_cast<clang::VarDecl>(D->getDecl());
  return nullptr;
}

/// "min" or "max" for a call of std::min or std::max with two arguments.
std::string minMaxCall(const clang::Expr *E) {
  const auto *C = llvm::dyn_cast<clang::CallExpr>(E->IgnoreParenImpCasts());
  if (!C || C->getNumArgs() != 2 || !C->getDirectCallee() ||
      !C->getDirectCallee()->isInStdNamespace() ||
      !C->getDirectCallee()->getIdentifier())
    return "";
  std::string N = C->getDirectCallee()->getName().str();
  return N == "min" || N == "max" ? N : "";
}

} // namespace

Lifter::Lifter(const KernelRequest &Req, clang::ASTContext &Ctx, Reporter &R)
    : Req(Req), Ctx(Ctx), SM(Ctx.getSourceManager()), R(R) {}

LiftedKernel Lifter::lift() {
  std::string Name = Req.Name.empty() ? Req.Function->getNameAsString() : Req.Name;
  K.Name = reservedNames().count(Name) ? Name + "_" : Name;
  if (Req.WholeFunction)
    collectLoops(Req.Root);
  else
    registerLoop(llvm::cast<clang::ForStmt>(Req.Root));
  if (K.Loops.empty()) {
    // Report a statement that cannot be lifted, such as a `while` loop,
    // before the missing `for` loop.
    Frames.emplace_back();
    stmt(Req.Root, Req.WholeFunction);
    R.error(Req.Function->getLocation(), msg::NoLoop)
        << Req.Function->getNameAsString();
    throw LiftFailed();
  }
  Frames.emplace_back();
  stmt(Req.Root, Req.WholeFunction);
  finalizeRoot();
  std::stable_sort(Finals.begin(), Finals.end(),
                   [&](const Statement &A, const Statement &B) {
                     return SM.isBeforeInTranslationUnit(A.Range.getBegin(),
                                                         B.Range.getBegin());
                   });
  for (const Statement &S : Finals) {
    K.Arrays[S.Array].Written = true;
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Read)
        K.Arrays[N.Id].Read = true;
      if (N.K == LExpr::Kind::Inf) {
        R.error(S.Range, msg::Infinity);
        throw LiftFailed();
      }
    });
  }
  K.Stmts = Finals;
  applyPragmas();
  checkElementConflicts();
  checkAliasing();
  return std::move(K);
}

void Lifter::collectLoops(const clang::Stmt *Block) {
  std::vector<const clang::ForStmt *> Found;
  std::function<void(const clang::Stmt *)> Gather = [&](const clang::Stmt *S) {
    if (const auto *F = llvm::dyn_cast_or_null<clang::ForStmt>(S))
      Found.push_back(F);
    else if (const auto *C = llvm::dyn_cast_or_null<clang::CompoundStmt>(S))
      for (const clang::Stmt *Child : C->body())
        Gather(Child);
  };
  Gather(Block);
  if (Found.size() > 1) {
    R.error(Found[1]->getForLoc(), msg::SecondLoop)
        << SM.getExpansionLineNumber(Found[0]->getForLoc());
    R.note(Found[0]->getForLoc(), msg::FirstLoop);
    throw LiftFailed();
  }
  if (!Found.empty())
    registerLoop(Found[0]);
}

void Lifter::registerLoop(const clang::ForStmt *F) {
  const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit());
  const auto *V = DS && DS->isSingleDecl()
                      ? llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl())
                      : nullptr;
  if (!V || !V->hasInit()) {
    R.error(F->getInit() ? F->getInit()->getSourceRange()
                         : clang::SourceRange(F->getForLoc()),
            msg::LoopInit);
    throw LiftFailed();
  }
  if (!V->getType()->isIntegerType()) {
    R.error(V->getLocation(), msg::LoopIndexType)
        << V->getName() << V->getType();
    throw LiftFailed();
  }
  Locals.insert(V);
  K.Symbols.push_back({Symbol::Kind::Index, uniqueName(V->getName().str()), V});
  Loop L;
  L.Index = static_cast<unsigned>(K.Symbols.size() - 1);
  L.Header = {F->getForLoc(), F->getRParenLoc()};
  K.Loops.push_back(L);
  LoopStmts.push_back(F);
  collectLoops(F->getBody());
}

std::optional<unsigned> Lifter::loopOf(const clang::VarDecl *V) const {
  for (unsigned D = 0; D < K.Loops.size(); ++D)
    if (K.Symbols[K.Loops[D].Index].Decl == V)
      return D;
  return std::nullopt;
}

void Lifter::readLoopHeader(unsigned D) {
  const clang::ForStmt *F = LoopStmts[D];
  const auto *V = llvm::cast<clang::VarDecl>(
      llvm::cast<clang::DeclStmt>(F->getInit())->getSingleDecl());
  Loop &L = K.Loops[D];
  std::string Name = V->getName().str();

  // The increment: ++i, i++, --i, i--, i += C, i -= C, i = i + C, i = i - C.
  long Step = 0;
  const clang::Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  auto ConstantOf = [&](const clang::Expr *E) -> long {
    clang::Expr::EvalResult Res;
    if (E->isValueDependent() || !E->EvaluateAsInt(Res, Ctx))
      return 0;
    return Res.Val.getInt().getExtValue();
  };
  if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc)) {
    if (U->isIncrementDecrementOp() && declaredVar(U->getSubExpr()) == V)
      Step = U->isIncrementOp() ? 1 : -1;
  } else if (const auto *C = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Inc)) {
    long S = ConstantOf(C->getRHS());
    if (declaredVar(C->getLHS()) == V && S > 0 &&
        (C->getOpcode() == clang::BO_AddAssign || C->getOpcode() == clang::BO_SubAssign))
      Step = C->getOpcode() == clang::BO_AddAssign ? S : -S;
  } else if (const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc)) {
    const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (B->getOpcode() == clang::BO_Assign && declaredVar(B->getLHS()) == V && Sum &&
        (Sum->getOpcode() == clang::BO_Add || Sum->getOpcode() == clang::BO_Sub)) {
      bool VarLeft = declaredVar(Sum->getLHS()) == V;
      bool VarRight = Sum->getOpcode() == clang::BO_Add && declaredVar(Sum->getRHS()) == V;
      long S = ConstantOf(VarLeft ? Sum->getRHS() : Sum->getLHS());
      if ((VarLeft || VarRight) && S > 0)
        Step = Sum->getOpcode() == clang::BO_Add ? S : -S;
    }
  }
  if (Step == 0) {
    R.error(Inc ? Inc->getSourceRange() : clang::SourceRange(F->getForLoc()),
            msg::LoopIncrement)
        << (Inc ? text(Inc) : "") << Name;
    throw LiftFailed();
  }
  bool Up = Step > 0;

  // The start value bounds the index from below (counting up) or above.
  std::vector<Bound> Start;
  splitBound(V->getInit(), !Up, false, V, Start);
  if (std::abs(Step) > 1) {
    if (Start.size() != 1) {
      R.error(V->getInit()->getSourceRange(), msg::LoopStepStart) << std::abs(Step);
      throw LiftFailed();
    }
    L.Step = std::abs(Step);
    L.Origin = Start[0].E;
  }
  (Up ? L.Lower : L.Upper) = Start;

  // The condition: comparisons joined with &&.
  const clang::Expr *Cond = F->getCond();
  if (!Cond) {
    R.error(F->getForLoc(), msg::LoopCondition) << "" << Name;
    throw LiftFailed();
  }
  std::vector<const clang::Expr *> Conjuncts;
  std::function<void(const clang::Expr *)> Split = [&](const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (B && B->getOpcode() == clang::BO_LAnd) {
      Split(B->getLHS());
      Split(B->getRHS());
    } else {
      Conjuncts.push_back(E);
    }
  };
  Split(Cond);
  unsigned Idx = L.Index;
  for (const clang::Expr *C : Conjuncts) {
    auto BadCondition = [&] {
      R.error(C->getSourceRange(), msg::LoopCondition) << text(C) << Name;
      throw LiftFailed();
    };
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(C);
    if (!B || !(B->isRelationalOp() || B->getOpcode() == clang::BO_NE))
      BadCondition();
    clang::BinaryOperatorKind Op = B->getOpcode();
    if (Op == clang::BO_NE) {
      if (std::abs(Step) != 1)
        BadCondition();
      Op = Up ? clang::BO_LT : clang::BO_GT;
    }
    // Normalize to `i OP E`.
    const clang::Expr *Other = nullptr;
    if (declaredVar(B->getLHS()) == V) {
      Other = B->getRHS();
    } else if (declaredVar(B->getRHS()) == V) {
      Other = B->getLHS();
      Op = clang::BinaryOperator::reverseComparisonOp(Op);
    }
    bool Upper = Op == clang::BO_LT || Op == clang::BO_LE;
    bool Strict = Op == clang::BO_LT || Op == clang::BO_GT;
    if (Upper != Up) {
      R.error(C->getSourceRange(), msg::LoopConditionDirection)
          << text(C) << Name << (Up ? 0 : 1);
      throw LiftFailed();
    }
    if (Other) {
      splitBound(Other, Upper, Strict, V, Upper ? L.Upper : L.Lower);
      continue;
    }
    // An affine comparison in which the index has coefficient 1 or -1,
    // such as `i + 1 < n`.
    Poly Diff = poly(B->getLHS(), "loop bound", false) -
                poly(B->getRHS(), "loop bound", false);
    long A = 0;
    for (const auto &[M, C2] : Diff.terms())
      if (M == Poly::Monomial{Idx})
        A = C2;
    if (A != 1 && A != -1)
      BadCondition();
    Poly Rest = Diff - Poly::symbol(Idx).scaled(A);
    // A*i + Rest OP 0, so i OP -Rest for A = 1 and i OP' Rest for A = -1.
    if (A == -1)
      Op = clang::BinaryOperator::reverseComparisonOp(Op);
    Upper = Op == clang::BO_LT || Op == clang::BO_LE;
    if (Upper != Up) {
      R.error(C->getSourceRange(), msg::LoopConditionDirection)
          << text(C) << Name << (Up ? 0 : 1);
      throw LiftFailed();
    }
    (Upper ? L.Upper : L.Lower).push_back({A == 1 ? -Rest : Rest, Strict});
  }
}

void Lifter::splitBound(const clang::Expr *E, bool Upper, bool Strict,
                        const clang::VarDecl *Var, std::vector<Bound> &Out) {
  std::string MinMax = minMaxCall(E);
  if (MinMax == (Upper ? "min" : "max")) {
    const auto *C = llvm::cast<clang::CallExpr>(E->IgnoreParenImpCasts());
    splitBound(C->getArg(0), Upper, Strict, Var, Out);
    splitBound(C->getArg(1), Upper, Strict, Var, Out);
    return;
  }
  Out.push_back({poly(E, "loop bound", false), Strict});
}

std::string Lifter::uniqueName(const std::string &CName) {
  std::string N = CName;
  while (reservedNames().count(N) || UsedNames.count(N))
    N += "_";
  UsedNames.insert(N);
  return N;
}

unsigned Lifter::order(const clang::ValueDecl *D) const {
  if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(D))
    return P->getFunctionScopeIndex();
  return 1000 + SM.getFileOffset(SM.getExpansionLoc(D->getLocation()));
}

unsigned Lifter::paramFor(const clang::VarDecl *V) {
  auto It = ParamIds.find(V);
  if (It != ParamIds.end())
    return It->second;
  K.Symbols.push_back(
      {Symbol::Kind::Param, uniqueName(V->getName().str()), V, order(V)});
  return ParamIds[V] = static_cast<unsigned>(K.Symbols.size() - 1);
}

unsigned Lifter::scalarFor(const clang::VarDecl *V, DType T) {
  auto It = ScalarIds.find(V);
  if (It != ScalarIds.end())
    return It->second;
  K.Scalars.push_back({uniqueName(V->getName().str()), V, T, order(V)});
  return ScalarIds[V] = static_cast<unsigned>(K.Scalars.size() - 1);
}

std::optional<Poly> Lifter::extentFromType(const clang::QualType &T,
                                           clang::SourceRange Use) {
  if (const auto *C = Ctx.getAsConstantArrayType(T))
    return Poly::constant(static_cast<long>(C->getSize().getZExtValue()));
  if (const auto *V = Ctx.getAsVariableArrayType(T))
    return poly(V->getSizeExpr(), "array extent", false);
  return std::nullopt;
}

unsigned Lifter::arrayFor(const clang::VarDecl *V, clang::SourceRange Use) {
  auto It = ArrayIds.find(V);
  if (It != ArrayIds.end())
    return It->second;
  ArrayArg A;
  A.Decl = V;
  A.Order = order(V);
  clang::QualType T = V->getType();
  clang::QualType Elem;
  if (T->isPointerType()) {
    const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(V);
    clang::QualType Orig = P ? P->getOriginalType() : T;
    A.TypeExtents.push_back(Orig->isArrayType() ? extentFromType(Orig, Use)
                                                : std::nullopt);
    Elem = T->getPointeeType();
    A.Restrict = T.isRestrictQualified();
  } else {
    Elem = T;
    A.DistinctObject = true;
  }
  while (const clang::ArrayType *AT = Ctx.getAsArrayType(Elem)) {
    A.TypeExtents.push_back(extentFromType(Elem, Use));
    Elem = AT->getElementType();
  }
  if (Elem->isPointerType()) {
    R.error(Use, msg::PointerToPointer) << V->getName();
    R.note(V->getLocation(), msg::DeclaredHere) << V->getName();
    throw LiftFailed();
  }
  std::optional<DType> D = dtypeOf(Elem);
  if (!D || *D == DType::Bool) {
    R.error(Use, msg::UnsupportedType) << V->getName() << V->getType();
    throw LiftFailed();
  }
  A.Elem = *D;
  A.Levels = static_cast<unsigned>(A.TypeExtents.size());
  A.Name = uniqueName(V->getName().str());
  A.CName = V->getName().str();
  K.Arrays.push_back(std::move(A));
  return ArrayIds[V] = static_cast<unsigned>(K.Arrays.size() - 1);
}

const clang::VarDecl *Lifter::lookupIntegerVar(const std::string &Name,
                                               clang::SourceLocation Loc,
                                               const char *Pragma) {
  auto Integer = [](const clang::NamedDecl *D) {
    const auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(D);
    return V && V->getType()->isIntegerType() ? V : nullptr;
  };
  for (const auto &[D, Id] : ParamIds)
    if (D->getName() == Name)
      return llvm::cast<clang::VarDecl>(D);
  for (const clang::ParmVarDecl *P : Req.Function->parameters())
    if (P->getName() == Name)
      return Integer(P);
  // A local variable of the function declared before the nest.
  const clang::VarDecl *Found = nullptr;
  std::function<void(const clang::Stmt *)> Search = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = Integer(llvm::dyn_cast<clang::NamedDecl>(D)))
          if (V->getName() == Name &&
              SM.isBeforeInTranslationUnit(V->getLocation(), Req.Root->getBeginLoc()))
            Found = V;
    for (const clang::Stmt *Child : S->children())
      Search(Child);
  };
  Search(Req.Function->getBody());
  if (Found)
    return Found;
  for (const clang::NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)))
    if (const auto *V = Integer(D))
      return V;
  R.error(Loc, msg::ShapeUnknownName) << Name << Pragma;
  throw LiftFailed();
}

Poly Lifter::pragmaName(const PragmaToken &T, const char *Pragma) {
  const clang::VarDecl *V = lookupIntegerVar(T.Text, T.Loc, Pragma);
  if (const clang::Expr *Init = V->getAnyInitializer()) {
    clang::Expr::EvalResult Res;
    if (V->getType().isConstQualified() && !Init->isValueDependent() &&
        Init->EvaluateAsInt(Res, Ctx))
      return Poly::constant(Res.Val.getInt().getExtValue());
  }
  return Poly::symbol(paramFor(V));
}

void Lifter::applyPragmas() {
  std::vector<std::string> Constraints;
  for (const LoopyPragma *P : Req.Shapes) {
    const char *Kind = P->K == LoopyPragma::Kind::Shape ? "shape" : "assume";
    auto Resolve = [&](const PragmaToken &T) { return pragmaName(T, Kind); };
    if (P->K == LoopyPragma::Kind::Assume) {
      auto Cs = parsePragmaConstraints(P->Extents[0], Resolve);
      if (!Cs) {
        R.error(P->Loc, msg::AssumeBadConstraint);
        throw LiftFailed();
      }
      std::vector<std::string> Names = K.symbolNames();
      for (const PragmaComparison &C : *Cs)
        Constraints.push_back(C.L.str(Names) + " " + C.Op + " " + C.R.str(Names));
      continue;
    }
    ArrayArg *A = nullptr;
    for (ArrayArg &Candidate : K.Arrays)
      if (Candidate.CName == P->Array.Text && (Candidate.Read || Candidate.Written))
        A = &Candidate;
    if (!A) {
      R.error(P->Array.Loc, msg::ShapeUnknownArray) << P->Array.Text;
      throw LiftFailed();
    }
    if (A->PragmaShape) {
      R.error(P->Loc, msg::ShapeTwice) << P->Array.Text;
      throw LiftFailed();
    }
    std::vector<Poly> Shape;
    for (const std::vector<PragmaToken> &E : P->Extents) {
      std::optional<Poly> Extent = parsePragmaAffine(E, Resolve);
      if (!Extent) {
        std::string All;
        for (const PragmaToken &T : E)
          All += (All.empty() ? "" : " ") + T.Text;
        R.error(E[0].Loc, msg::ShapeBadExtent) << All;
        throw LiftFailed();
      }
      Shape.push_back(*Extent);
    }
    A->PragmaShape = std::move(Shape);
    A->PragmaLoc = P->Loc;
  }
  for (const std::string &C : Constraints)
    K.Assumption += (K.Assumption.empty() ? "" : " and ") + C;
}

void Lifter::checkElementConflicts() {
  for (unsigned Id = 0; Id < K.Arrays.size(); ++Id) {
    const ArrayArg &A = K.Arrays[Id];
    if (!A.Read || !A.Written)
      continue;
    // Every access, in source order.
    struct Access {
      const std::vector<Poly> *Subs;
      clang::SourceRange Range;
      bool Write;
      std::string Text;
    };
    std::vector<Access> All;
    for (const Statement &S : K.Stmts) {
      if (S.Array == Id)
        All.push_back({&S.Subs, S.Range, true, S.What});
      walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
        if (N.K == LExpr::Kind::Read && N.Id == Id)
          All.push_back({&N.Subs, N.Range, false, text(N.Range)});
      });
    }
    std::stable_sort(All.begin(), All.end(), [&](const Access &X, const Access &Y) {
      return SM.isBeforeInTranslationUnit(X.Range.getBegin(), Y.Range.getBegin());
    });
    const Access *Written = nullptr;
    for (const Access &X : All)
      if (X.Write && !Written)
        Written = &X;
    for (const Access &X : All) {
      if (*X.Subs == *Written->Subs)
        continue;
      R.error(X.Range, msg::OtherElement)
          << X.Text << (X.Write ? 1 : 0) << A.CName << Written->Text;
      throw LiftFailed();
    }
    // A statement may read its own output array only.
    for (const Statement &S : K.Stmts) {
      if (S.Array == Id)
        continue;
      walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
        if (N.K != LExpr::Kind::Read || N.Id != Id)
          return;
        R.error(N.Range, msg::ReadOtherOutput) << text(N.Range) << A.CName;
        throw LiftFailed();
      });
    }
  }
}

void Lifter::checkAliasing() {
  for (const ArrayArg &W : K.Arrays) {
    if (!W.Written)
      continue;
    for (const ArrayArg &X : K.Arrays) {
      if (&X == &W || !(X.Read || X.Written))
        continue;
      if (W.Restrict || X.Restrict || (W.DistinctObject && X.DistinctObject))
        continue;
      clang::SourceRange At;
      for (const Statement &S : K.Stmts)
        if (&K.Arrays[S.Array] == &W && At.isInvalid())
          At = S.Range;
      R.error(At, msg::MayAlias)
          << W.Decl->getName() << X.Decl->getName() << (X.Written ? 1 : 0);
      R.note(W.Decl->getLocation(), msg::DeclaredHere) << W.Decl->getName();
      throw LiftFailed();
    }
  }
}

} // namespace loopy::extract
