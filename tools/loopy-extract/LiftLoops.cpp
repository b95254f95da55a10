//===- LiftLoops.cpp - The loop nest and its loop headers -----------------===//
#include "Lifter.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/ParentMapContext.h"

#include <cstdlib>
#include <functional>
#include <map>

namespace loopy::extract {

namespace {

/// The variable that \p E names, if it names one.
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

void Lifter::collectLoops(const clang::Stmt *Block) {
  std::vector<const clang::ForStmt *> Found;
  std::function<void(const clang::Stmt *)> Gather = [&](const clang::Stmt *S) {
    if (skipped(S))
      return;
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
  // `for (int i = E; ...)`, or `for (i = E; ...)` with `i` declared before.
  const clang::VarDecl *V = nullptr;
  const clang::Expr *Start = nullptr;
  bool Declared = false;
  if (const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit())) {
    V = DS->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl())
                           : nullptr;
    Start = V && V->hasInit() ? V->getInit() : nullptr;
    Declared = true;
  } else if (const auto *B =
                 llvm::dyn_cast_or_null<clang::BinaryOperator>(F->getInit());
             B && B->getOpcode() == clang::BO_Assign) {
    V = declaredVar(B->getLHS());
    Start = B->getRHS();
  }
  // A start that assigns (`i = j = 0`) sets more than the index.
  const auto *StartOp =
      Start ? llvm::dyn_cast<clang::BinaryOperator>(Start->IgnoreParenImpCasts())
            : nullptr;
  const auto *StartUnary =
      Start ? llvm::dyn_cast<clang::UnaryOperator>(Start->IgnoreParenImpCasts())
            : nullptr;
  if (!V || !Start || (StartOp && StartOp->isAssignmentOp()) ||
      (StartUnary && StartUnary->isIncrementDecrementOp())) {
    R.error(F->getInit() ? F->getInit()->getSourceRange()
                         : clang::SourceRange(F->getForLoc()),
            msg::LoopInit);
    throw LiftFailed();
  }
  if (!V->getType()->isIntegerType()) {
    R.error(Declared ? V->getLocation() : F->getInit()->getBeginLoc(),
            msg::LoopIndexType)
        << V->getName() << V->getType();
    throw LiftFailed();
  }
  if (!Declared)
    checkIndexDead(V, F);
  Locals.insert(V);
  K.Symbols.push_back({Symbol::Kind::Index, uniqueName(V->getName().str()), V});
  Loop L;
  L.Index = static_cast<unsigned>(K.Symbols.size() - 1);
  L.Header = {F->getForLoc(), F->getRParenLoc()};
  K.Loops.push_back(L);
  LoopStmts.push_back(F);
  LoopStarts.push_back(Start);
  collectLoops(F->getBody());
}

bool Lifter::assignsIndex(const clang::ForStmt *F, const clang::VarDecl *V) {
  const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(F->getInit());
  return B && B->getOpcode() == clang::BO_Assign && declaredVar(B->getLHS()) == V;
}

const clang::DeclRefExpr *Lifter::readOutside(const clang::VarDecl *V,
                                              const clang::Stmt *Except,
                                              bool SkipIndexLoops,
                                              const clang::Stmt *Within) {
  const clang::DeclRefExpr *Found = nullptr;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || Found || S == Except)
      return;
    if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S);
        F && SkipIndexLoops && assignsIndex(F, V))
      return;
    // A plain assignment to V writes it without reading it.
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
        B && B->getOpcode() == clang::BO_Assign && declaredVar(B->getLHS()) == V)
      return Walk(B->getRHS());
    if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S);
        D && D->getDecl() == V) {
      Found = D;
      return;
    }
    for (const clang::Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Within ? Within : Req.Function->getBody());
  return Found;
}

const clang::DeclRefExpr *Lifter::liveRead(const clang::VarDecl *V,
                                           const clang::Stmt *S) {
  if (!Cfg) {
    clang::CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Cfg = clang::CFG::buildCFG(Req.Function, Req.Function->getBody(), &Ctx,
                               Options);
  }
  // Without a graph, any read outside the loops that set V may be one.
  if (!Cfg)
    return readOutside(V, S, true);
  // Names of V that plain assignments store to, which do not read it.
  std::set<const clang::Stmt *> Stores;
  std::function<void(const clang::Stmt *)> FindStores =
      [&](const clang::Stmt *X) {
        if (!X)
          return;
        if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(X);
            B && B->getOpcode() == clang::BO_Assign &&
            declaredVar(B->getLHS()) == V)
          Stores.insert(B->getLHS()->IgnoreParens());
        for (const clang::Stmt *Child : X->children())
          FindStores(Child);
      };
  FindStores(Req.Function->getBody());

  std::vector<std::pair<const clang::CFGBlock *, unsigned>> Work;
  for (const clang::CFGBlock *B : *Cfg) {
    if (llvm::isa<clang::ForStmt>(S) && B->getTerminatorStmt() == S) {
      // The loop's condition block: its second successor is the exit.
      if (B->succ_size() == 2 && B->succ_begin()[1].getReachableBlock())
        Work.push_back({B->succ_begin()[1].getReachableBlock(), 0});
      continue;
    }
    for (unsigned I = 0; I < B->size(); ++I)
      if (auto E = (*B)[I].getAs<clang::CFGStmt>(); E && E->getStmt() == S)
        Work.push_back({B, I + 1});
  }
  std::set<const clang::CFGBlock *> Seen;
  while (!Work.empty()) {
    auto [B, First] = Work.back();
    Work.pop_back();
    bool Killed = false;
    for (unsigned I = First; I < B->size() && !Killed; ++I) {
      auto E = (*B)[I].getAs<clang::CFGStmt>();
      if (!E)
        continue;
      const clang::Stmt *X = E->getStmt();
      if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(X);
          D && D->getDecl() == V && !Stores.count(D))
        return D;
      if (const auto *A = llvm::dyn_cast<clang::BinaryOperator>(X);
          A && A->getOpcode() == clang::BO_Assign &&
          declaredVar(A->getLHS()) == V)
        Killed = true;
    }
    if (Killed)
      continue;
    for (const clang::CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const clang::CFGBlock *Next = Succ.getReachableBlock();
          Next && Seen.insert(Next).second)
        Work.push_back({Next, 0});
  }
  return nullptr;
}

void Lifter::checkIndexDead(const clang::VarDecl *V, const clang::ForStmt *F) {
  // These errors leave the loop as it is: the rest of the nest is still
  // lifted, to report its errors too.
  if (!V->hasLocalStorage()) {
    R.error(F->getInit()->getSourceRange(), msg::LoopIndexNotLocal)
        << V->getName();
    R.note(V->getLocation(), msg::DeclaredHere) << V->getName();
    Failed = true;
    return;
  }
  // The lifted loop leaves no value in V: nothing may read the value that
  // the loop leaves (other loops over V set it before they read it).
  if (const clang::DeclRefExpr *Use = liveRead(V, F)) {
    R.error(Use->getSourceRange(), msg::LoopIndexLive)
        << V->getName() << SM.getExpansionLineNumber(F->getForLoc());
    R.note(F->getInit()->getSourceRange(), msg::LoopIndexSetHere)
        << V->getName();
    // A read in the kernel would be lifted as the index.
    if (SM.isPointWithin(Use->getBeginLoc(), Req.Root->getBeginLoc(),
                         Req.Root->getEndLoc()))
      throw LiftFailed();
    Failed = true;
    return;
  }
  // In the kernel, V has a value only inside the loops over it.
  if (const clang::DeclRefExpr *Use = readOutside(V, nullptr, true, Req.Root)) {
    R.error(Use->getSourceRange(), msg::LoopIndexReadElsewhere)
        << V->getName() << SM.getExpansionLineNumber(F->getForLoc());
    // The store that the kernel would have to keep, if there is one.
    const clang::Expr *Store = nullptr;
    std::function<void(const clang::Stmt *)> Find = [&](const clang::Stmt *S) {
      if (!S || Store)
        return;
      if (const auto *L = llvm::dyn_cast<clang::ForStmt>(S);
          L && assignsIndex(L, V))
        return;
      if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
          B && B->isAssignmentOp() && declaredVar(B->getLHS()) == V)
        Store = B;
      for (const clang::Stmt *Child : S->children())
        Find(Child);
    };
    Find(Req.Root);
    if (Store)
      R.note(Store->getSourceRange(), msg::IndexSetOutsideLoop) << V->getName();
    throw LiftFailed();
  }
}

std::optional<unsigned> Lifter::loopOf(const clang::VarDecl *V) const {
  for (unsigned D = 0; D < K.Loops.size(); ++D)
    if (K.Symbols[K.Loops[D].Index].Decl == V)
      return D;
  return std::nullopt;
}

void Lifter::readLoopHeader(unsigned D) {
  const clang::ForStmt *F = LoopStmts[D];
  const auto *V = llvm::cast<clang::VarDecl>(K.Symbols[K.Loops[D].Index].Decl);
  const clang::Expr *StartExpr = LoopStarts[D];
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
    if (!Inc) {
      R.error(clang::SourceRange(F->getLParenLoc(), F->getRParenLoc()),
              msg::LoopNoIncrement)
          << Name;
    } else if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Inc);
               B && B->getOpcode() == clang::BO_Comma) {
      R.error(Inc->getSourceRange(), msg::LoopIncrementComma)
          << text(Inc) << Name;
    } else {
      R.error(Inc->getSourceRange(), msg::LoopIncrement) << text(Inc) << Name;
    }
    throw LiftFailed();
  }
  bool Up = Step > 0;
  L.Down = !Up;

  // The start value bounds the index from below (counting up) or above.
  std::vector<Bound> Start;
  splitBound(StartExpr, !Up, false, V, Start);
  if (std::abs(Step) > 1) {
    if (Start.size() != 1) {
      R.error(StartExpr->getSourceRange(), msg::LoopStepStart) << std::abs(Step);
      throw LiftFailed();
    }
    L.Step = std::abs(Step);
    L.Origin = Start[0].E;
  }
  (Up ? L.Lower : L.Upper) = Start;

  // The condition: comparisons joined with &&.
  const clang::Expr *Cond = F->getCond();
  if (!Cond) {
    R.error(clang::SourceRange(F->getLParenLoc(), F->getRParenLoc()),
            msg::LoopNoCondition)
        << Name;
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
    if (Other && !Up && V->getType()->isUnsignedIntegerType()) {
      // Counting down, an unsigned index goes from 0 to the largest value
      // of its type. Stopping there (`i != (unsigned)-1`) is C's way to
      // run down to 0; a bound of 0 or less is never reached.
      clang::Expr::EvalResult Res;
      if (!Other->isValueDependent() && Other->EvaluateAsInt(Res, Ctx)) {
        const llvm::APSInt &B = Res.Val.getInt();
        if (Strict && B.isUnsigned() && B.isMaxValue() &&
            B.getBitWidth() == Ctx.getTypeSize(V->getType())) {
          L.Lower.push_back({Poly::constant(0), false});
          continue;
        }
        if (B.isUnsigned() ? B.isZero() && !Strict
                           : B.getSExtValue() < (Strict ? 0 : 1)) {
          R.error(C->getSourceRange(), msg::UnsignedDownToZero)
              << text(C) << Name
              << V->getType().getUnqualifiedType().getAsString();
          throw LiftFailed();
        }
      }
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

bool Lifter::usesKnownNames(const clang::Expr *E) const {
  bool Known = true;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || !Known)
      return;
    if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl()))
        if (!ParamIds.count(V) &&
            !(V->getType().isConstQualified() && V->getAnyInitializer()))
          Known = false;
    for (const clang::Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(E);
  return Known;
}

void Lifter::assumeEnclosingLoops() {
  // The loops around the nest, innermost first.
  std::vector<const clang::ForStmt *> Outer;
  const clang::Stmt *Child = Req.Root;
  while (true) {
    clang::DynTypedNodeList Parents = Ctx.getParents(*Child);
    const clang::Stmt *P = Parents.empty() ? nullptr : Parents[0].get<clang::Stmt>();
    if (!P)
      break;
    if (const auto *F = llvm::dyn_cast<clang::ForStmt>(P))
      Outer.push_back(F);
    Child = P;
  }
  std::vector<std::string> Names = K.symbolNames();
  // isl text over the kernel's parameters and, as set dimensions that are
  // projected out, the other integer variables that the loop headers use
  // (the indices of outer loops that the nest does not use).
  std::vector<std::string> Hidden;
  std::map<const clang::VarDecl *, std::string> HiddenNames;
  auto NameOf = [&](const clang::VarDecl *V) -> std::string {
    if (auto Id = ParamIds.find(V); Id != ParamIds.end())
      return Names[Id->second];
    auto [It, New] = HiddenNames.insert({V, ""});
    if (New) {
      std::string N;
      for (unsigned I = static_cast<unsigned>(HiddenNames.size());; ++I)
        if (N = "h" + std::to_string(I) + "_"; !UsedNames.count(N))
          break;
      It->second = N;
      Hidden.push_back(N);
    }
    return It->second;
  };
  std::function<std::optional<std::string>(const clang::Expr *)> Text =
      [&](const clang::Expr *E) -> std::optional<std::string> {
    E = E->IgnoreParenImpCasts();
    clang::Expr::EvalResult Res;
    if (!E->isValueDependent() && E->EvaluateAsInt(Res, Ctx))
      return std::to_string(Res.Val.getInt().getExtValue());
    if (const clang::VarDecl *V = declaredVar(E))
      return V->getType()->isIntegerType() ? std::optional(NameOf(V))
                                           : std::nullopt;
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
        U && U->getOpcode() == clang::UO_Minus)
      if (std::optional<std::string> X = Text(U->getSubExpr()))
        return "-(" + *X + ")";
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (!B)
      return std::nullopt;
    std::optional<std::string> L = Text(B->getLHS()), R = Text(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    if (B->getOpcode() == clang::BO_Add || B->getOpcode() == clang::BO_Sub)
      return "(" + *L + (B->getOpcode() == clang::BO_Add ? " + " : " - ") + *R +
             ")";
    // A product with a constant factor.
    if (B->getOpcode() == clang::BO_Mul &&
        (B->getLHS()->EvaluateAsInt(Res, Ctx) ||
         B->getRHS()->EvaluateAsInt(Res, Ctx)))
      return "(" + *L + ")*(" + *R + ")";
    return std::nullopt;
  };

  std::vector<std::string> Host;
  std::vector<std::string> Constraints;
  for (const clang::ForStmt *F : Outer) {
    // Its index and start, as registerLoop reads them.
    const clang::VarDecl *V = nullptr;
    const clang::Expr *Start = nullptr;
    if (const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit());
        DS && DS->isSingleDecl()) {
      V = llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl());
      Start = V && V->hasInit() ? V->getInit() : nullptr;
    } else if (const auto *B =
                   llvm::dyn_cast_or_null<clang::BinaryOperator>(F->getInit());
               B && B->getOpcode() == clang::BO_Assign) {
      V = declaredVar(B->getLHS());
      Start = B->getRHS();
    }
    if (!V)
      continue;
    Host.insert(Host.begin(), V->getName().str());
    if (!Start || !F->getInc() || !F->getCond() ||
        !V->getType()->isIntegerType())
      continue;
    // Only the direction matters here: the index runs from its start
    // towards the bounds of the condition.
    const clang::Expr *Inc = F->getInc()->IgnoreParens();
    int Dir = 0;
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Inc);
        U && U->isIncrementDecrementOp() && declaredVar(U->getSubExpr()) == V) {
      Dir = U->isIncrementOp() ? 1 : -1;
    } else if (const auto *C =
                   llvm::dyn_cast<clang::CompoundAssignOperator>(Inc);
               C && declaredVar(C->getLHS()) == V) {
      Dir = C->getOpcode() == clang::BO_AddAssign   ? 1
            : C->getOpcode() == clang::BO_SubAssign ? -1
                                                    : 0;
    } else if (const auto *A = llvm::dyn_cast<clang::BinaryOperator>(Inc);
               A && A->getOpcode() == clang::BO_Assign &&
               declaredVar(A->getLHS()) == V) {
      const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(
          A->getRHS()->IgnoreParenImpCasts());
      if (Sum && declaredVar(Sum->getLHS()) == V)
        Dir = Sum->getOpcode() == clang::BO_Add   ? 1
              : Sum->getOpcode() == clang::BO_Sub ? -1
                                                  : 0;
      else if (Sum && Sum->getOpcode() == clang::BO_Add &&
               declaredVar(Sum->getRHS()) == V)
        Dir = 1;
    }
    if (Dir == 0)
      continue;
    const std::string Name = NameOf(V);
    std::vector<std::string> Own;
    if (std::optional<std::string> S = Text(Start))
      Own.push_back(Dir > 0 ? *S + " <= " + Name : Name + " <= " + *S);
    std::function<void(const clang::Expr *)> Split = [&](const clang::Expr *E) {
      const auto *B =
          llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
      if (!B)
        return;
      if (B->getOpcode() == clang::BO_LAnd) {
        Split(B->getLHS());
        Split(B->getRHS());
        return;
      }
      std::string Op = B->getOpcodeStr().str();
      if (B->getOpcode() == clang::BO_NE) {
        // `i != n` stops where the index first meets n.
        if (declaredVar(B->getLHS()) != V && declaredVar(B->getRHS()) != V)
          return;
        bool Left = declaredVar(B->getLHS()) == V;
        Op = (Dir > 0) == Left ? "<" : ">";
      } else if (!B->isRelationalOp()) {
        return;
      }
      std::optional<std::string> L = Text(B->getLHS()), R = Text(B->getRHS());
      if (L && R)
        Own.push_back(*L + " " + Op + " " + *R);
    };
    Split(F->getCond());
    Constraints.insert(Constraints.begin(), Own.begin(), Own.end());
  }
  K.HostLoops = Host;
  if (Constraints.empty())
    return;
  std::string All;
  for (const std::string &C : Constraints)
    All += (All.empty() ? "" : " and ") + C;
  std::string Tuple;
  for (const std::string &H : Hidden)
    Tuple += (Tuple.empty() ? "" : ", ") + H;
  IslContext Isl;
  isl::set Range(Isl.get(),
                 K.islParams() + "{ [" + Tuple + "] : " + All + " }");
  isl::set Params = Range.params().coalesce();
  if (Params.is_equal(isl::set::universe(Params.get_space())))
    return;
  char *Raw = isl_set_to_str(Params.get());
  std::string T = Raw ? Raw : "";
  free(Raw);
  size_t Colon = T.find(':'), Close = T.rfind('}');
  // What isl cannot write as plain affine constraints (a stride, a
  // union) is left out: the assumption may only be weaker than the truth.
  if (Colon == std::string::npos || Close == std::string::npos ||
      T.find("exists ") != std::string::npos ||
      T.find(';') != std::string::npos ||
      T.find(" mod ") != std::string::npos ||
      T.find("floor(") != std::string::npos)
    return;
  T = T.substr(Colon + 1, Close - Colon - 1);
  T.erase(0, T.find_first_not_of(' '));
  T.erase(T.find_last_not_of(' ') + 1);
  if (T.find(" or ") != std::string::npos)
    T = "(" + T + ")";
  K.Assumption += (K.Assumption.empty() ? "" : " and ") + T;
}

} // namespace loopy::extract
