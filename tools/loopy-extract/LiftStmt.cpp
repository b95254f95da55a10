//===- LiftStmt.cpp - Statements, loop frames and accumulations -----------===//
#include "Accumulate.h"
#include "Lifter.h"

#include <algorithm>
#include <functional>
#include <set>

namespace loopy::extract {

void Lifter::notLifted(const clang::Stmt *S, const char *What, const char *Why) {
  R.error(S->getSourceRange(), msg::StatementNotLifted) << What << Why;
  throw LiftFailed();
}

void Lifter::stmt(const clang::Stmt *S, bool LastInFunction) {
  using namespace clang;
  if (const auto *C = llvm::dyn_cast<CompoundStmt>(S)) {
    // A statement that fails is reported and left out; the next ones are
    // still lifted, so one run reports every error of the nest.
    for (const Stmt *Child : C->body()) {
      if (skipped(Child))
        continue;
      try {
        stmt(Child, LastInFunction && Child == C->body_back());
      } catch (LiftFailed &) {
        Failed = true;
        poisonTargets(Child);
      }
    }
    return;
  }
  if (llvm::isa<NullStmt>(S))
    return;
  if (const auto *DS = llvm::dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      if (const auto *V = llvm::dyn_cast<VarDecl>(D))
        declare(V);
      else if (!llvm::isa<TypedefNameDecl, UsingDecl, StaticAssertDecl>(D))
        notLifted(S, "this declaration",
                  "a kernel declares only scalar variables");
    }
    return;
  }
  if (const auto *F = llvm::dyn_cast<ForStmt>(S))
    return forLoop(F);
  if (const auto *I = llvm::dyn_cast<IfStmt>(S))
    return ifStmt(I);
  if (const auto *E = llvm::dyn_cast<Expr>(S))
    return exprStmt(E);
  if (const auto *Ret = llvm::dyn_cast<ReturnStmt>(S)) {
    if (LastInFunction && depth() == 0 && !Ret->getRetValue())
      return;
    notLifted(S, "'return'",
              "a kernel runs its loops to the end; store results through "
              "pointer arguments");
  }
  if (llvm::isa<WhileStmt, DoStmt>(S))
    notLifted(S, llvm::isa<WhileStmt>(S) ? "a 'while' loop" : "a 'do' loop",
              "its trip count is not given by affine bounds; write a 'for' "
              "loop");
  if (llvm::isa<BreakStmt>(S))
    notLifted(S, "'break'",
              "it ends the loop early, so which iterations run depends on the "
              "data");
  if (llvm::isa<ContinueStmt>(S))
    notLifted(S, "'continue'",
              "it skips the rest of an iteration depending on the data; pick "
              "values with '?:' instead");
  if (llvm::isa<GotoStmt, IndirectGotoStmt, LabelStmt>(S))
    notLifted(S, "'goto'", "it makes the control flow irregular");
  if (llvm::isa<SwitchStmt>(S))
    notLifted(S, "'switch'",
              "it is data-dependent control flow; compute the values and pick "
              "one with '?:'");
  notLifted(S, "this statement",
            "a kernel holds declarations of scalars, assignments and 'for' "
            "loops");
}

void Lifter::declare(const clang::VarDecl *V) {
  Locals.insert(V);
  clang::QualType T = V->getType();
  if (T->isPointerType()) {
    if (!V->hasInit()) {
      R.error(V->getSourceRange(), msg::UnresolvedPointer)
          << V->getName() << "it has no initial value";
      throw LiftFailed();
    }
    PointerLocals[V] = V->getInit();
    return;
  }
  if (T->isArrayType()) {
    R.error(V->getSourceRange(), msg::LocalArray) << V->getName();
    throw LiftFailed();
  }
  std::optional<DType> D = dtypeOf(T);
  if (!D || *D == DType::Bool) {
    R.error(V->getSourceRange(), msg::UnsupportedType) << V->getName() << T;
    throw LiftFailed();
  }
  Slot S;
  if (V->hasInit()) {
    S.Value = castTo(value(V->getInit()), *D);
    S.MinDepth = depth();
    S.Range = V->getSourceRange();
    S.What = V->getName().str();
  }
  Frames.back().Scalars[V] = S;
}

void Lifter::exprStmt(const clang::Expr *E) {
  using namespace clang;
  E = E->IgnoreParens();
  if (const auto *Cleanups = llvm::dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParens();
  if (const auto *B = llvm::dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp()) {
    // An index declared before its loop may be set outside the loops over
    // it (checkIndexDead made sure that nothing in the kernel reads that
    // value): the store is dead unless code after the kernel reads it; a
    // value with side effects is still lifted, to report them.
    if (const auto *D = llvm::dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
        D && B->getOpcode() == BO_Assign)
      if (std::optional<unsigned> L =
              loopOf(llvm::dyn_cast<VarDecl>(D->getDecl()));
          L && !llvm::isa<DeclStmt>(LoopStmts[*L]->getInit()) &&
          (SM.isBeforeInTranslationUnit(E->getBeginLoc(),
                                        LoopStmts[*L]->getBeginLoc()) ||
           SM.isBeforeInTranslationUnit(LoopStmts[*L]->getEndLoc(),
                                        E->getBeginLoc()))) {
        if (const clang::DeclRefExpr *Use =
                liveRead(llvm::cast<VarDecl>(D->getDecl()), B)) {
          R.error(B->getLHS()->getSourceRange(), msg::ScalarLive)
              << text(B->getLHS())
              << SM.getExpansionLineNumber(Use->getBeginLoc());
          R.note(Use->getSourceRange(), msg::ReadHere)
              << D->getDecl()->getName();
          throw LiftFailed();
        }
        if (B->getRHS()->HasSideEffects(Ctx))
          value(B->getRHS());
        return;
      }
    // A chain `a = b = e`: the inner assignment is a statement of its own,
    // and its value, what it stored, is stored again.
    const auto *Inner =
        llvm::dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (B->getOpcode() == BO_Assign && Inner && Inner->isAssignmentOp())
      exprStmt(Inner);
    else
      Inner = nullptr;
    StoreTarget T = storeTarget(B->getLHS());
    LExprPtr V;
    if (Inner) {
      V = load(storeTarget(Inner->getLHS()), Inner->getLHS()->getSourceRange());
    } else if (B->getOpcode() == BO_Assign) {
      V = value(B->getRHS());
    } else {
      const auto *CA = llvm::cast<CompoundAssignOperator>(B);
      static const std::map<BinaryOperatorKind, const char *> Ops = {
          {BO_AddAssign, "+"}, {BO_SubAssign, "-"}, {BO_MulAssign, "*"},
          {BO_DivAssign, "/"}, {BO_RemAssign, "%"}};
      auto Op = Ops.find(B->getOpcode());
      if (Op == Ops.end())
        exprNotLifted(E, "bitwise operators and shifts have no .loop "
                         "counterpart");
      DType CT = requireDType(CA->getComputationLHSType(), B->getLHS());
      V = makeBinary(Op->second, castTo(load(T, B->getLHS()->getSourceRange()), CT),
                     castTo(value(B->getRHS()), CT));
    }
    store(T, castTo(V, T.Type), B->getSourceRange());
    return;
  }
  if (const auto *U = llvm::dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp()) {
    StoreTarget T = storeTarget(U->getSubExpr());
    store(T,
          makeBinary(U->isIncrementOp() ? "+" : "-",
                     load(T, U->getSubExpr()->getSourceRange()),
                     makeLiteral("1", T.Type)),
          U->getSourceRange());
    return;
  }
  if (const auto *C = llvm::dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    R.error(C->getSourceRange(), msg::CallNotLifted)
        << (F ? F->getNameAsString() : text(C->getCallee()));
    throw LiftFailed();
  }
  if (E->HasSideEffects(Ctx))
    exprNotLifted(E, "it has side effects");
}

void Lifter::ifStmt(const clang::IfStmt *S) {
  using namespace clang;
  // The max/min idiom: if (x > m) m = x;
  const Stmt *Then = S->getThen();
  if (const auto *C = llvm::dyn_cast<CompoundStmt>(Then); C && C->size() == 1)
    Then = C->body_front();
  const auto *Cond = llvm::dyn_cast<BinaryOperator>(S->getCond()->IgnoreParenImpCasts());
  const auto *Assign = llvm::dyn_cast<BinaryOperator>(Then);
  if (!S->getElse() && !S->getInit() && !S->getConditionVariable() && Cond &&
      Cond->isRelationalOp() && Assign && Assign->getOpcode() == BO_Assign) {
    const Expr *Target = Assign->getLHS(), *New = Assign->getRHS();
    bool NewLeft = sameExpr(Cond->getLHS(), New) &&
                   sameExpr(Cond->getRHS(), Target);
    bool NewRight = sameExpr(Cond->getRHS(), New) &&
                    sameExpr(Cond->getLHS(), Target);
    if (NewLeft || NewRight) {
      bool Greater = Cond->getOpcode() == BO_GT || Cond->getOpcode() == BO_GE;
      bool Max = NewLeft ? Greater : !Greater;
      StoreTarget T = storeTarget(Target);
      LExprPtr Old = load(T, Target->getSourceRange());
      store(T,
            makeCall(Max ? "max" : "min", {Old, castTo(value(New), T.Type)},
                     T.Type),
            S->getSourceRange());
      return;
    }
  }
  // Otherwise name what makes the condition data-dependent, if anything.
  const Expr *Data = nullptr;
  std::function<void(const Stmt *)> Find = [&](const Stmt *X) {
    if (!X || Data)
      return;
    if (llvm::isa<ArraySubscriptExpr>(X) ||
        (llvm::isa<UnaryOperator>(X) &&
         llvm::cast<UnaryOperator>(X)->getOpcode() == UO_Deref)) {
      Data = llvm::cast<Expr>(X);
      return;
    }
    if (const auto *D = llvm::dyn_cast<DeclRefExpr>(X))
      if (const auto *V = llvm::dyn_cast<VarDecl>(D->getDecl()))
        if (!loopOf(V) && !V->getType()->isIntegerType()) {
          Data = D;
          return;
        }
    for (const Stmt *Child : X->children())
      Find(Child);
  };
  Find(S->getCond());
  if (Data)
    R.error(Data->getSourceRange(), msg::DataDependentIf) << text(Data);
  else
    R.error(S->getCond()->getSourceRange(), msg::IndexIf);
  throw LiftFailed();
}

StoreTarget Lifter::storeTarget(const clang::Expr *LHS) {
  const clang::Expr *E = LHS->IgnoreParens();
  StoreTarget T;
  T.Text = text(E);
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl());
    if (V && loopOf(V)) {
      R.error(E->getSourceRange(), msg::LoopIndexModified) << V->getName();
      throw LiftFailed();
    }
    if (V && PointerLocals.count(V)) {
      R.error(E->getSourceRange(), msg::UnresolvedPointer)
          << V->getName() << "it is assigned again in the loop nest";
      throw LiftFailed();
    }
    if (V && !isLocal(V) && V->hasLocalStorage() && !Req.WholeFunction)
      if (const clang::DeclRefExpr *Use = liveRead(V, Req.Root)) {
        R.error(E->getSourceRange(), msg::ScalarLive)
            << T.Text << SM.getExpansionLineNumber(Use->getBeginLoc());
        R.note(Use->getSourceRange(), msg::ReadHere) << V->getName();
        throw LiftFailed();
      }
    if (!V || !isLocal(V)) {
      R.error(E->getSourceRange(), msg::WriteOutside) << T.Text;
      throw LiftFailed();
    }
    T.Var = V;
    T.Loc.Var = V;
    T.Type = requireDType(V->getType(), E);
    return T;
  }
  ElementRef ER = element(E);
  const ArrayArg &A = K.Arrays[ER.Array];
  if (ER.Levels.size() != A.Levels)
    exprNotLifted(E, "it assigns a whole row; subscript every level of the "
                     "array");
  T.Loc = {nullptr, ER.Array, ER.Levels};
  T.Type = A.Elem;
  return T;
}

LExprPtr Lifter::load(const StoreTarget &T, clang::SourceRange Use) {
  if (!T.Var)
    return readElement(T.Loc, T.Type, Use);
  const Slot &S = Frames.back().Scalars[T.Var];
  if (S.Poisoned)
    throw LiftFailed();
  if ((!S.Value || S.Undefined) && !S.LastLoop.empty()) {
    R.error(S.LastAssigned, msg::NotAccumulated) << S.What << S.LastLoop;
    R.note(Use, msg::UsedAfterLoop);
    throw LiftFailed();
  }
  if (!S.Value || S.Undefined) {
    R.error(Use, msg::ReadBeforeWrite) << T.Var->getName();
    throw LiftFailed();
  }
  return S.Value;
}

LExprPtr Lifter::readElement(const LocKey &L, DType T, clang::SourceRange Use) {
  // An element whose subscripts use a loop's index is written in one
  // iteration of that loop at most (checkElementConflicts makes sure), so
  // it holds the value from before the loop until this iteration writes it.
  for (size_t F = Frames.size(); F-- > 0;) {
    const Frame &Fr = Frames[F];
    for (const auto &[Key, S] : Fr.Elements)
      if (Key == L)
        return S.Value;
    if (!Fr.Loop)
      break;
    unsigned Idx = K.Loops[*Fr.Loop].Index;
    if (std::none_of(L.Subs.begin(), L.Subs.end(),
                     [&](const Poly &P) { return P.uses(Idx); }))
      return makeOld(L, T, Use);
  }
  return makeRead(L.Array, L.Subs, T, Use);
}

Slot &Lifter::slot(Frame &F, const LocKey &L) {
  if (L.Var)
    return F.Scalars[static_cast<const clang::VarDecl *>(L.Var)];
  for (auto &[Key, S] : F.Elements)
    if (Key == L)
      return S;
  return F.Elements.emplace_back(L, Slot()).second;
}

void Lifter::assign(Slot &S, LExprPtr V, unsigned Depth,
                    clang::SourceRange Range, const std::string &What) {
  S.Value = std::move(V);
  S.Undefined = false;
  S.LastLoop.clear();
  S.Poisoned = false;
  S.MinDepth = std::min(S.MinDepth, Depth);
  if (S.Range.isInvalid()) {
    S.Range = Range;
    S.What = What;
  }
}

void Lifter::store(const StoreTarget &T, LExprPtr V, clang::SourceRange Range) {
  assign(slot(Frames.back(), T.Loc), std::move(V), depth(), Range, T.Text);
}

void Lifter::forLoop(const clang::ForStmt *F) {
  unsigned D = depth();
  assert(D < LoopStmts.size() && LoopStmts[D] == F && "loop outside the nest");
  // Read here, where the locals its bounds may use have their values. A
  // header that fails leaves the loop without bounds; its body is still
  // lifted, to report its errors too.
  try {
    readLoopHeader(D);
  } catch (LiftFailed &) {
    Failed = true;
    HeaderFailed = true;
  }
  Frame Body;
  Body.Loop = D;
  for (const auto &[V, S] : Frames.back().Scalars) {
    Slot N;
    N.Value = makeOld(LocKey{V, 0, {}}, *dtypeOf(V->getType()));
    N.Undefined = !S.Value || S.Undefined;
    N.LastLoop = S.LastLoop;
    N.Poisoned = S.Poisoned;
    N.LastAssigned = S.LastAssigned;
    N.What = S.What;
    Body.Scalars[V] = N;
    Body.Inherited.push_back(V);
  }
  std::sort(Body.Inherited.begin(), Body.Inherited.end(),
            [&](const clang::VarDecl *A, const clang::VarDecl *B) {
              return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
            });
  Frames.push_back(std::move(Body));
  try {
    stmt(F->getBody());
  } catch (LiftFailed &) {
    Frames.pop_back();
    throw;
  }
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  leaveLoop(std::move(Done));
}

void Lifter::leaveLoop(Frame Body) {
  unsigned Idx = K.Loops[*Body.Loop].Index;
  std::string IdxName =
      llvm::cast<clang::VarDecl>(K.Symbols[Idx].Decl)->getName().str();
  Frame &Parent = Frames.back();

  // The locations this iteration assigned and that outlive it; elements
  // whose subscripts use the index are others in every iteration instead.
  struct Change {
    LocKey Loc;
    Slot S;
  };
  std::vector<Change> Changed;
  std::vector<Change> PerIteration;
  for (const clang::VarDecl *V : Body.Inherited) {
    const Slot &S = Body.Scalars[V];
    if (!S.Value) {
      // Private to the iterations of an inner loop: so it stays.
      Slot &P = Parent.Scalars[V];
      P.Value = nullptr;
      P.Undefined = true;
      P.LastLoop = S.LastLoop;
      P.LastAssigned = S.LastAssigned;
      P.What = S.What;
      P.Poisoned = S.Poisoned;
      continue;
    }
    bool Same = S.Value->K == LExpr::Kind::Old && S.Value->Loc.Var == V;
    if (S.MinDepth != UINT_MAX && !Same)
      Changed.push_back({LocKey{V, 0, {}}, S});
  }
  for (const auto &[L, S] : Body.Elements) {
    bool Fresh = std::any_of(L.Subs.begin(), L.Subs.end(),
                             [&](const Poly &P) { return P.uses(Idx); });
    (Fresh ? PerIteration : Changed).push_back({L, S});
  }

  auto ChangedAt = [&](const LExprPtr &V, const LocKey *Except) -> const Change * {
    for (const Change &C : Changed)
      if (!(Except && C.Loc == *Except) &&
          containsOld(V, [&](const LocKey &L) { return L == C.Loc; }))
        return &C;
    return nullptr;
  };
  auto CheckUses = [&](const LExprPtr &V, clang::SourceRange At,
                       const LocKey *Except) {
    if (const Change *C = ChangedAt(V, Except)) {
      // A location that the iteration overwrites, rather than updates, is
      // read here before it is set: a value carried between iterations.
      if (!containsOld(C->S.Value,
                       [&](const LocKey &L) { return L == C->Loc; })) {
        R.error(At, msg::UsesPreviousIteration) << C->S.What << IdxName;
        R.note(C->S.Range, msg::SetLaterHere) << C->S.What;
        throw LiftFailed();
      }
      R.error(At, msg::UsesAccumulator) << C->S.What << IdxName;
      throw LiftFailed();
    }
  };
  // The value of a location before the loop, as the parent frame sees it.
  auto Before = [&](const LocKey &L, DType T, clang::SourceRange Use) -> LExprPtr {
    if (!L.Var)
      return readElement(L, T, Use);
    return Parent.Scalars.at(static_cast<const clang::VarDecl *>(L.Var)).Value;
  };
  // Replaces the placeholders of unchanged locations by their values
  // before the loop (all but Keep).
  auto Resolve = [&](const LExprPtr &V, const LocKey *Keep) {
    return substituteOld(V, [&](const LExprPtr &Old) {
      if (Keep && Old->Loc == *Keep)
        return Old;
      LExprPtr B = Before(Old->Loc, Old->Type, Old->Range);
      assert(B && "a variable without a value was read in the loop");
      return B;
    });
  };

  // Every changed location: overwritten with a value the same in every
  // iteration, or accumulated.
  std::vector<std::pair<const Change *, LExprPtr>> Results;
  // A location that fails is reported and has no value after the loop;
  // the others are still checked.
  auto Fail = [&](const Change &C) {
    Failed = true;
    if (!C.Loc.Var)
      return;
    Slot &P = Parent.Scalars[static_cast<const clang::VarDecl *>(C.Loc.Var)];
    P.Value = nullptr;
    P.Undefined = true;
    P.Poisoned = true;
  };
  for (const Change &C : Changed) try {
    CheckUses(C.S.Value, C.S.Range, &C.Loc);
    LExprPtr V = Resolve(C.S.Value, &C.Loc);
    bool Accumulates =
        containsOld(V, [&](const LocKey &L) { return L == C.Loc; });
    if (!Accumulates) {
      if (usesSymbol(V, Idx) && C.Loc.Var) {
        // A scalar set anew in every iteration is private to them; only
        // a read after the loop, which would see the last one, is wrong.
        Slot &P = Parent.Scalars[static_cast<const clang::VarDecl *>(C.Loc.Var)];
        P.Value = nullptr;
        P.Undefined = true;
        P.LastLoop = IdxName;
        P.LastAssigned = C.S.Range;
        P.What = C.S.What;
        continue;
      }
      if (usesSymbol(V, Idx)) {
        R.error(C.S.Range, msg::NotAccumulated) << C.S.What << IdxName;
        throw LiftFailed();
      }
      Results.push_back({&C, V});
      continue;
    }
    std::optional<Accumulation> A = matchAccumulation(V, C.Loc);
    if (!A) {
      R.error(C.S.Range, msg::NotAReduction) << C.S.What << IdxName;
      throw LiftFailed();
    }
    LExprPtr Start = Before(C.Loc, V->Type, C.S.Range);
    if (!Start) {
      R.error(C.S.Range, msg::ReadBeforeWrite) << C.S.What;
      throw LiftFailed();
    }
    LExprPtr Reduced = makeReduce(A->Op, Idx, A->Term, C.S.MinDepth,
                                  C.S.Range, C.S.What);
    Results.push_back({&C, combineAccumulation(*A, Start, Reduced)});
  } catch (LiftFailed &) {
    Fail(C);
  }
  // Elements the iteration writes for itself go on to the parent frame
  // too, as a family of elements (one for each value of the index).
  for (const Change &C : PerIteration) try {
    CheckUses(C.S.Value, C.S.Range, nullptr);
    Results.push_back({&C, Resolve(C.S.Value, nullptr)});
  } catch (LiftFailed &) {
    Fail(C);
  }
  for (const auto &[C, V] : Results)
    assign(slot(Parent, C->Loc), V, C->S.MinDepth, C->S.Range, C->S.What);
}

void Lifter::findPrivateScalars() {
  std::set<const clang::VarDecl *> Assigned;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S)
      return;
    const clang::Expr *Target = storedTo(S);
    if (Target)
      if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(Target->IgnoreParens()))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl()))
          Assigned.insert(V);
    for (const clang::Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Req.Root);
  for (const clang::VarDecl *V : Assigned) {
    clang::QualType T = V->getType();
    if (isLocal(V) || !V->hasLocalStorage() || T->isPointerType() ||
        T->isArrayType() || !dtypeOf(T) || *dtypeOf(T) == DType::Bool ||
        SM.isBeforeInTranslationUnit(Req.Root->getBeginLoc(),
                                     V->getLocation()) ||
        liveRead(V, Req.Root))
      continue;
    Locals.insert(V);
    Frames.front().Scalars[V] = Slot();
  }
}

void Lifter::poisonTargets(const clang::Stmt *S) {
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *X) {
    if (!X)
      return;
    const clang::Expr *Target = storedTo(X);
    const clang::VarDecl *V = nullptr;
    if (Target)
      if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(Target->IgnoreParens()))
        V = llvm::dyn_cast<clang::VarDecl>(D->getDecl());
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(X))
      for (const clang::Decl *D : DS->decls())
        if (const auto *DV = llvm::dyn_cast<clang::VarDecl>(D)) {
          Locals.insert(DV);
          Frames.back().Scalars[DV].Poisoned = true;
        }
    if (V && isLocal(V) && !loopOf(V) && !PointerLocals.count(V)) {
      Slot &Sl = Frames.back().Scalars[V];
      Sl.Value = nullptr;
      Sl.Undefined = true;
      Sl.Poisoned = true;
    }
    for (const clang::Stmt *Child : X->children())
      Walk(Child);
  };
  Walk(S);
}

void Lifter::finalizeRoot() {
  for (const auto &[L, S] : Frames.front().Elements)
    Finals.push_back({L.Array, L.Subs, S.Value, S.MinDepth, S.Range, S.What});
}

} // namespace loopy::extract
