//===- Targets.cpp - Which function or loop each pragma marks -------------===//
#include "Targets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <climits>
#include <set>
#include <functional>
#include <string>

namespace loopy::extract {

const clang::Expr *storedTo(const clang::Stmt *S) {
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
      B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    return U->getSubExpr();
  return nullptr;
}

namespace {

/// A declaration or statement of the main file, by where it starts.
struct Node {
  unsigned Offset;
  const clang::Decl *D = nullptr;
  const clang::Stmt *S = nullptr;
  const clang::FunctionDecl *Function = nullptr;
};

class NodeCollector : public clang::RecursiveASTVisitor<NodeCollector> {
public:
  explicit NodeCollector(clang::ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}

  bool TraverseDecl(clang::Decl *D) {
    const clang::FunctionDecl *Saved = Function;
    if (auto *F = llvm::dyn_cast_or_null<clang::FunctionDecl>(D))
      Function = F;
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Function = Saved;
    return Result;
  }
  bool VisitDecl(clang::Decl *D) {
    // The declarations inside `extern "C" { ... }` start after it.
    if (!llvm::isa<clang::LinkageSpecDecl, clang::TranslationUnitDecl>(D))
      add(D->getBeginLoc(), D, nullptr);
    return true;
  }
  bool VisitStmt(clang::Stmt *S) {
    add(S->getBeginLoc(), nullptr, S);
    return true;
  }

  std::vector<Node> Nodes;

private:
  void add(clang::SourceLocation Loc, const clang::Decl *D,
           const clang::Stmt *S) {
    if (Loc.isInvalid() || Loc.isMacroID() || !SM.isInMainFile(Loc))
      return;
    Nodes.push_back({SM.getFileOffset(Loc), D, S, Function});
  }

  clang::SourceManager &SM;
  const clang::FunctionDecl *Function = nullptr;
};

/// The first node that starts after \p Offset, outermost first among nodes
/// that start at the same place; null if none.
const Node *nodeAfter(const std::vector<Node> &Nodes, unsigned Offset) {
  auto It = std::upper_bound(
      Nodes.begin(), Nodes.end(), Offset,
      [](unsigned O, const Node &N) { return O < N.Offset; });
  return It == Nodes.end() ? nullptr : &*It;
}

/// The index that the loop \p F sets in its header, if any.
const clang::VarDecl *loopIndex(const clang::ForStmt *F) {
  if (const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit()))
    return DS->isSingleDecl()
               ? llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl())
               : nullptr;
  if (const auto *B =
          llvm::dyn_cast_or_null<clang::BinaryOperator>(F->getInit());
      B && B->getOpcode() == clang::BO_Assign)
    if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(
            B->getLHS()->IgnoreParenImpCasts()))
      return llvm::dyn_cast<clang::VarDecl>(D->getDecl());
  return nullptr;
}

/// True if \p S names the variable \p V.
bool mentions(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return false;
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S);
      D && D->getDecl() == V)
    return true;
  for (const clang::Stmt *Child : S->children())
    if (mentions(Child, V))
      return true;
  return false;
}

/// True if \p V appears in what a statement in \p S stores to (an array
/// element's subscripts, or V itself) or in the header of a loop in \p S.
bool steersNest(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return false;
  if (const clang::Expr *Target = storedTo(S); Target && mentions(Target, V))
    return true;
  if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S))
    if (mentions(F->getInit(), V) || mentions(F->getCond(), V) ||
        mentions(F->getInc(), V))
      return true;
  for (const clang::Stmt *Child : S->children())
    if (steersNest(Child, V))
      return true;
  return false;
}

/// The loops of \p F's body if \p F is a time loop: its body holds only
/// loops, and its index selects neither what they store to nor their
/// bounds, so its iterations repeat one computation on the results of the
/// previous one. With one loop in the body, the index must not appear at
/// all: a loop whose index only selects what is read (`y[i] += a[k][i]`)
/// is a reduction. Empty if \p F is no time loop.
std::vector<const clang::ForStmt *> timeLoopBody(const clang::ForStmt *F) {
  const clang::VarDecl *V = loopIndex(F);
  if (!V || !F->getCond() || !F->getInc())
    return {};
  std::vector<const clang::ForStmt *> Loops;
  auto Take = [&](const clang::Stmt *S) {
    if (const auto *L = llvm::dyn_cast<clang::ForStmt>(S)) {
      Loops.push_back(L);
      return true;
    }
    return llvm::isa<clang::NullStmt>(S);
  };
  if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(F->getBody())) {
    for (const clang::Stmt *S : C->body())
      if (!Take(S))
        return {};
  } else if (!Take(F->getBody())) {
    return {};
  }
  if (Loops.empty() || steersNest(F->getBody(), V) ||
      (Loops.size() == 1 && mentions(F->getBody(), V)))
    return {};
  return Loops;
}

/// A nest in the body of a time loop.
struct TimeNest {
  const clang::ForStmt *Nest;
  const clang::ForStmt *Time;
};

/// The nests of the time loops at the top of \p F, in order; empty if \p F
/// is no time loop.
void timeLoopNests(const clang::ForStmt *F, std::vector<TimeNest> &Out) {
  for (const clang::ForStmt *L : timeLoopBody(F)) {
    if (timeLoopBody(L).empty())
      Out.push_back({L, F});
    else
      timeLoopNests(L, Out);
  }
}

/// The request \p K, or one request per nest of its time loop (see
/// matchPragmas).
void splitTimeLoop(KernelRequest K, clang::SourceManager &SM,
                   std::vector<KernelRequest> &Out) {
  const clang::ForStmt *Time = nullptr;
  if (K.WholeFunction) {
    // Declarations, then the loop.
    for (const clang::Stmt *S :
         llvm::cast<clang::CompoundStmt>(K.Root)->body()) {
      if (llvm::isa<clang::DeclStmt, clang::NullStmt>(S) && !Time)
        continue;
      const auto *F = llvm::dyn_cast<clang::ForStmt>(S);
      if (!F || Time) {
        Time = nullptr;
        break;
      }
      Time = F;
    }
  } else {
    Time = llvm::cast<clang::ForStmt>(K.Root);
  }
  std::vector<TimeNest> Nests;
  if (Time)
    timeLoopNests(Time, Nests);
  if (Nests.empty()) {
    Out.push_back(std::move(K));
    return;
  }
  std::string Base = K.Name.empty() ? K.Function->getNameAsString() : K.Name;
  for (unsigned I = 0; I < Nests.size(); ++I) {
    KernelRequest Part = K;
    Part.Root = Nests[I].Nest;
    Part.WholeFunction = false;
    Part.NestLoc = Nests[I].Nest->getForLoc();
    if (Nests.size() > 1) {
      Part.Name = Base + "_" + std::to_string(I);
      // Its place among the nests of the time loop right around it.
      const clang::ForStmt *Around = Nests[I].Time;
      unsigned Place = 0, Count = 0;
      for (unsigned J = 0; J < Nests.size(); ++J)
        if (Nests[J].Time == Around) {
          Place += J < I;
          ++Count;
        }
      if (Count > 1)
        Part.HostNote =
            "part " + std::to_string(Place + 1) + " of " +
            std::to_string(Count) + " of the body of the loop over '" +
            loopIndex(Around)->getName().str() + "' on line " +
            std::to_string(SM.getExpansionLineNumber(Around->getForLoc())) +
            ": the host runs the parts in this order";
    } else {
      Part.Name = Base;
    }
    // A shape belongs to the parts that access its array.
    Part.Shapes.clear();
    for (const LoopyPragma *P : K.Shapes) {
      bool Named = P->K != LoopyPragma::Kind::Shape;
      std::function<void(const clang::Stmt *)> Find =
          [&](const clang::Stmt *S) {
            if (!S || Named)
              return;
            if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S))
              Named = D->getDecl()->getIdentifier() &&
                      D->getDecl()->getName() == P->Array.Text;
            for (const clang::Stmt *Child : S->children())
              Find(Child);
          };
      Find(Nests[I].Nest);
      if (Named)
        Part.Shapes.push_back(P);
    }
    Out.push_back(std::move(Part));
  }
}

/// The statements of \p Body that a part of \p K lifts: all but the
/// declarations, the empty statements and those of other parts, with
/// those of blocks inside it.
std::vector<const clang::Stmt *> nestItems(const clang::Stmt *Body,
                                           const KernelRequest &K) {
  std::vector<const clang::Stmt *> Items;
  // The statements of a block inside the body count as its own.
  std::function<void(const clang::Stmt *)> Take = [&](const clang::Stmt *S) {
    if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(S)) {
      for (const clang::Stmt *Child : C->body())
        Take(Child);
      return;
    }
    if (!llvm::isa<clang::DeclStmt, clang::NullStmt>(S) &&
        std::find(K.Skip.begin(), K.Skip.end(), S) == K.Skip.end())
      Items.push_back(S);
  };
  Take(Body);
  return Items;
}

/// The scalar variables that statements in \p S store to.
void storedScalars(const clang::Stmt *S,
                   std::vector<const clang::VarDecl *> &Out) {
  if (!S)
    return;
  if (const clang::Expr *Target = storedTo(S))
    if (const auto *D =
            llvm::dyn_cast<clang::DeclRefExpr>(Target->IgnoreParenImpCasts()))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl()))
        Out.push_back(V);
  for (const clang::Stmt *Child : S->children())
    storedScalars(Child, Out);
}

/// True if \p S stores to scalar variables only (and holds no loop).
bool setsOnlyScalars(const clang::Stmt *S) {
  if (!S || llvm::isa<clang::ForStmt>(S))
    return false;
  if (const clang::Expr *Target = storedTo(S)) {
    const auto *D =
        llvm::dyn_cast<clang::DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = D ? llvm::dyn_cast<clang::VarDecl>(D->getDecl()) : nullptr;
    if (!V || !V->getType()->isScalarType() || V->getType()->isPointerType())
      return false;
  }
  for (const clang::Stmt *Child : S->children())
    if (Child && !setsOnlyScalars(Child) &&
        (storedTo(Child) || llvm::isa<clang::ForStmt>(Child)))
      return false;
  return true;
}

/// The variable at the base of the array access \p E (`a` in `a[i][j]`
/// and `*(a + i)`); null if \p E is no array access.
const clang::VarDecl *arrayBase(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
    return arrayBase(A->getBase()) ? arrayBase(A->getBase())
                                   : arrayBase(A->getLHS());
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->getOpcode() == clang::UO_Deref)
    return arrayBase(U->getSubExpr());
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
      B && B->isAdditiveOp())
    return B->getLHS()->getType()->isPointerType() ? arrayBase(B->getLHS())
                                                   : arrayBase(B->getRHS());
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return llvm::dyn_cast<clang::VarDecl>(D->getDecl());
  return nullptr;
}

/// True if \p S sets an array element with a plain '=' from a value that
/// does not read its array, at a location that leaves out one of \p Vs:
/// every iteration of their loops overwrites that element (as doitgen's
/// `sum[p] = 0.0` under loops over r and q), where an update such as
/// `a[i][j] = a[i][j] - ...` accumulates.
bool overwritesAcross(const clang::Stmt *S,
                      const std::vector<const clang::VarDecl *> &Vs) {
  if (!S)
    return false;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
      B && B->getOpcode() == clang::BO_Assign &&
      !llvm::isa<clang::DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts())) {
    const clang::VarDecl *Base = arrayBase(B->getLHS());
    if (Base && !mentions(B->getRHS(), Base))
      for (const clang::VarDecl *V : Vs)
        if (!mentions(B->getLHS(), V))
          return true;
  }
  for (const clang::Stmt *Child : S->children())
    if (overwritesAcross(Child, Vs))
      return true;
  return false;
}

/// True if the loop \p F counts down.
bool countsDown(const clang::ForStmt *F) {
  const clang::Expr *Inc = F->getInc();
  if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc))
    return U->isDecrementOp();
  if (const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc))
    return B->getOpcode() == clang::BO_SubAssign;
  return false;
}

/// The local scalar variables that \p S mentions, other than \p Indices.
void scalarsMentioned(const clang::Stmt *S,
                      const std::vector<const clang::VarDecl *> &Indices,
                      std::set<const clang::VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S))
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl());
        V && V->isLocalVarDecl() && V->getType()->isScalarType() &&
        !V->getType()->isPointerType() &&
        std::find(Indices.begin(), Indices.end(), V) == Indices.end())
      Out.insert(V);
  for (const clang::Stmt *Child : S->children())
    scalarsMentioned(Child, Indices, Out);
}

/// The arrays (pointer or array variables) that \p S mentions, and those
/// it stores to.
void arraysMentioned(const clang::Stmt *S,
                     std::set<const clang::VarDecl *> &Mentioned,
                     std::set<const clang::VarDecl *> &Stored) {
  if (!S)
    return;
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S))
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl());
        V && (V->getType()->isPointerType() || V->getType()->isArrayType()))
      Mentioned.insert(V);
  if (const clang::Expr *Target = storedTo(S))
    if (const clang::VarDecl *Base = arrayBase(Target))
      if (Base->getType()->isPointerType() || Base->getType()->isArrayType())
        Stored.insert(Base);
  for (const clang::Stmt *Child : S->children())
    arraysMentioned(Child, Mentioned, Stored);
}

/// Splits the nest of \p K by statement where its innermost loop body
/// (\p Items, under the loops \p Around) holds statements that form
/// several groups, statements joined by the scalars they share (one
/// stores what the other uses), and one group writes an array that
/// another accesses: one kernel could hold them only at disjoint
/// elements. The statements beside the loops (\p FirstOnly before them,
/// \p LastOnly after) join the group whose scalars they use. Each group
/// is a part under copies of all the loops, kept in \p K as the
/// alternative to lifting the nest whole; ExtractAction lifts the parts
/// where the whole nest does not lift, orders them by their dependences,
/// with isl, or rejects the nest where they depend on each other both
/// ways. False, leaving \p K as it was, where the body does not have that
/// form.
bool splitStatements(KernelRequest &K,
                     const std::vector<const clang::Stmt *> &Items,
                     const std::vector<const clang::ForStmt *> &Around,
                     const std::vector<std::string> &Names, unsigned Common,
                     clang::SourceLocation Outer,
                     const std::vector<const clang::Stmt *> &FirstOnly,
                     const std::vector<const clang::Stmt *> &LastOnly) {
  if (Items.size() < 2 || !K.Skip.empty() || Around.empty())
    return false;
  std::vector<const clang::VarDecl *> Indices;
  for (const clang::ForStmt *F : Around)
    Indices.push_back(loopIndex(F));
  // The nodes: the innermost statements, then those beside the loops.
  std::vector<const clang::Stmt *> Nodes = Items;
  Nodes.insert(Nodes.end(), FirstOnly.begin(), FirstOnly.end());
  Nodes.insert(Nodes.end(), LastOnly.begin(), LastOnly.end());
  size_t N = Nodes.size();
  std::vector<std::set<const clang::VarDecl *>> Uses(N);
  std::vector<std::vector<const clang::VarDecl *>> Stores(N);
  for (size_t I = 0; I < N; ++I) {
    scalarsMentioned(Nodes[I], Indices, Uses[I]);
    storedScalars(Nodes[I], Stores[I]);
  }
  std::vector<size_t> Leader(N);
  for (size_t I = 0; I < N; ++I)
    Leader[I] = I;
  std::function<size_t(size_t)> Find = [&](size_t I) {
    return Leader[I] == I ? I : Leader[I] = Find(Leader[I]);
  };
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J)
      if (I != J && std::any_of(Stores[I].begin(), Stores[I].end(),
                                [&](const clang::VarDecl *V) {
                                  return Uses[J].count(V) > 0;
                                }))
        Leader[Find(I)] = Find(J);
  // The groups, in the order of their first innermost statement.
  std::vector<size_t> GroupLeaders;
  for (size_t I = 0; I < Items.size(); ++I)
    if (std::find(GroupLeaders.begin(), GroupLeaders.end(), Find(I)) ==
        GroupLeaders.end())
      GroupLeaders.push_back(Find(I));
  if (GroupLeaders.size() < 2)
    return false;
  std::vector<size_t> GroupOf(N);
  for (size_t I = 0; I < N; ++I) {
    auto It = std::find(GroupLeaders.begin(), GroupLeaders.end(), Find(I));
    if (It != GroupLeaders.end())
      GroupOf[I] = static_cast<size_t>(It - GroupLeaders.begin());
    else
      GroupOf[I] = I < Items.size() + FirstOnly.size()
                       ? 0
                       : GroupLeaders.size() - 1;
  }
  // One group writes an array that another accesses.
  std::vector<std::set<const clang::VarDecl *>> Mentioned(GroupLeaders.size()),
      Stored(GroupLeaders.size());
  for (size_t I = 0; I < N; ++I)
    arraysMentioned(Nodes[I], Mentioned[GroupOf[I]], Stored[GroupOf[I]]);
  bool Shared = false;
  for (size_t G = 0; G < GroupLeaders.size(); ++G)
    for (size_t H = 0; H < GroupLeaders.size(); ++H)
      for (const clang::VarDecl *V : Stored[G])
        Shared |= G != H && Mentioned[H].count(V) > 0;
  if (!Shared)
    return false;
  for (size_t G = 0; G < GroupLeaders.size(); ++G) {
    KernelRequest Part = K;
    for (size_t I = 0; I < N; ++I)
      if (GroupOf[I] != G)
        Part.Skip.push_back(Nodes[I]);
    for (size_t I = 0; I < Items.size(); ++I)
      if (GroupOf[I] == G) {
        Part.NestLoc = Items[I]->getBeginLoc();
        break;
      }
    Part.Shared = Common;
    Part.SharedNames.assign(Names.begin(), Names.begin() + Common);
    Part.SharedLoc = Outer;
    Part.StmtSplitLoops = Around;
    Part.DistGroup = UINT_MAX;
    Part.DistPart = static_cast<unsigned>(G);
    Part.DistParts = static_cast<unsigned>(GroupLeaders.size());
    K.StmtSplit.push_back(std::move(Part));
  }
  return true;
}

/// The statements of the groups before \p G (each group a loop with the
/// statements that go with it) that the group \p G needs as well: those
/// that set only scalars which \p G, or another statement it needs, uses
/// (as deriche's `a3 = a7 = ...` before the first of its nests sets a
/// coefficient of the second). They run again before the group, in
/// source order, so a group that sets such a scalar itself still sees its
/// own value. A statement that uses or sets a scalar that a loop of the
/// groups sets is left out: its value would depend on the loops that
/// the group leaves out.
std::set<const clang::Stmt *>
setupFor(const std::vector<std::vector<const clang::Stmt *>> &Groups,
         size_t G) {
  std::vector<const clang::VarDecl *> SetByLoops;
  for (const std::vector<const clang::Stmt *> &Group : Groups)
    for (const clang::Stmt *S : Group)
      if (llvm::isa<clang::ForStmt>(S))
        storedScalars(S, SetByLoops);
  auto MentionsAny = [](const clang::Stmt *S,
                        const std::vector<const clang::VarDecl *> &Vs) {
    return std::any_of(Vs.begin(), Vs.end(), [&](const clang::VarDecl *V) {
      return mentions(S, V);
    });
  };
  std::vector<const clang::Stmt *> Candidates;
  for (size_t O = 0; O < G; ++O)
    for (const clang::Stmt *S : Groups[O])
      if (setsOnlyScalars(S) && !MentionsAny(S, SetByLoops))
        Candidates.push_back(S);
  std::vector<const clang::Stmt *> Users(Groups[G].begin(), Groups[G].end());
  std::set<const clang::Stmt *> Needed;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const clang::Stmt *S : Candidates) {
      if (Needed.count(S))
        continue;
      std::vector<const clang::VarDecl *> Sets;
      storedScalars(S, Sets);
      if (std::any_of(Users.begin(), Users.end(), [&](const clang::Stmt *U) {
            return MentionsAny(U, Sets);
          })) {
        Needed.insert(S);
        Users.push_back(S);
        Grew = true;
      }
    }
  }
  return Needed;
}

/// Splits the part \p K where a loop body of its nest (or the function
/// body) first holds several loops, each body above it holding one: each
/// of those loops is a part, with the statements before it, or
/// after it where they use a scalar that its part stores to. Each part
/// is split again in turn; the parts go to \p Out in order. \p Shared
/// and \p Names describe the split that separated \p K from the part
/// before it.
void distributeNest(KernelRequest K, clang::SourceManager &SM,
                    std::vector<KernelRequest> &Out) {
  std::vector<const clang::Stmt *> Items =
      K.WholeFunction ? nestItems(K.Root, K)
                      : std::vector<const clang::Stmt *>{K.Root};
  std::vector<std::string> Names;
  clang::SourceLocation Outer;
  // Statements beside the loops on the way down: those that set only
  // scalars are repeated in every part; the others go to the first part
  // (before the loop) or the last (after it).
  std::vector<const clang::Stmt *> FirstOnly, LastOnly;
  std::vector<const clang::ForStmt *> Around;
  bool Beside = false;
  // The loops around every statement: those above the first body that
  // holds statements beside its loop.
  unsigned Common = UINT_MAX;
  for (;;) {
    unsigned Loops = 0;
    for (const clang::Stmt *S : Items)
      Loops += llvm::isa<clang::ForStmt>(S);
    if (Loops > 1)
      break;
    auto It =
        std::find_if(Items.begin(), Items.end(), [](const clang::Stmt *S) {
          return llvm::isa<clang::ForStmt>(S);
        });
    const auto *F =
        It == Items.end() ? nullptr : llvm::cast<clang::ForStmt>(*It);
    const clang::VarDecl *V = F ? loopIndex(F) : nullptr;
    if (!V) {
      splitStatements(K, Items, Around, Names,
                      std::min(Common, static_cast<unsigned>(Around.size())),
                      Outer, FirstOnly, LastOnly);
      Out.push_back(std::move(K));
      return;
    }
    for (auto S = Items.begin(); S != It; ++S)
      if (!setsOnlyScalars(*S))
        FirstOnly.push_back(*S);
    LastOnly.insert(LastOnly.end(), It + 1, Items.end());
    if (Items.size() > 1 && !Beside)
      Common = static_cast<unsigned>(Around.size());
    Beside |= Items.size() > 1;
    Around.push_back(F);
    Names.push_back(V->getName().str());
    if (Outer.isInvalid())
      Outer = F->getForLoc();
    Items = nestItems(F->getBody(), K);
  }
  // Statements go with the loop after them, unless they use what the
  // part before them stores to.
  std::vector<std::vector<const clang::Stmt *>> Groups;
  std::vector<const clang::Stmt *> Pending;
  std::vector<const clang::VarDecl *> Stored;
  for (const clang::Stmt *S : Items) {
    if (llvm::isa<clang::ForStmt>(S)) {
      Pending.push_back(S);
      Groups.push_back(std::move(Pending));
      Pending.clear();
      Stored.clear();
      for (const clang::Stmt *G : Groups.back())
        storedScalars(G, Stored);
      continue;
    }
    bool UsesPrevious =
        std::any_of(Stored.begin(), Stored.end(),
                    [&](const clang::VarDecl *V) { return mentions(S, V); });
    if (UsesPrevious && Pending.empty())
      Groups.back().push_back(S);
    else
      Pending.push_back(S);
  }
  for (const clang::Stmt *S : Pending)
    Groups.back().push_back(S);
  // Loops around parts that are one loop each, where a part overwrites an
  // element in every iteration of those loops, stay on the host: each
  // part is that loop, marked inside them. ExtractAction checks with isl
  // that they carry no true dependence.
  bool OneLoopEach = std::all_of(
      Groups.begin(), Groups.end(),
      [](const std::vector<const clang::Stmt *> &G) { return G.size() == 1; });
  std::vector<const clang::VarDecl *> AroundIndices;
  for (const clang::ForStmt *F : Around)
    AroundIndices.push_back(loopIndex(F));
  if (!Around.empty() && !Beside && OneLoopEach &&
      std::any_of(Groups.begin(), Groups.end(),
                  [&](const std::vector<const clang::Stmt *> &G) {
                    return overwritesAcross(G[0], AroundIndices);
                  })) {
    for (unsigned G = 0; G < Groups.size(); ++G) {
      KernelRequest Part = K;
      Part.Root = Groups[G][0];
      Part.WholeFunction = false;
      Part.Skip.clear();
      Part.NestLoc = llvm::cast<clang::ForStmt>(Groups[G][0])->getForLoc();
      Part.HostShared = true;
      Part.Shared = static_cast<unsigned>(Names.size());
      Part.SharedNames = Names;
      Part.SharedLoc = Outer;
      Part.SharedDown.clear();
      for (const clang::ForStmt *F : Around)
        Part.SharedDown.push_back(countsDown(F));
      Out.push_back(std::move(Part));
    }
    return;
  }
  for (unsigned G = 0; G < Groups.size(); ++G) {
    KernelRequest Part = K;
    std::set<const clang::Stmt *> Setup = setupFor(Groups, G);
    for (unsigned O = 0; O < Groups.size(); ++O)
      if (O != G)
        for (const clang::Stmt *S : Groups[O])
          if (!Setup.count(S))
            Part.Skip.push_back(S);
    if (G > 0)
      Part.Skip.insert(Part.Skip.end(), FirstOnly.begin(), FirstOnly.end());
    if (G + 1 < Groups.size())
      Part.Skip.insert(Part.Skip.end(), LastOnly.begin(), LastOnly.end());
    if (G > 0) {
      Part.Shared = static_cast<unsigned>(Names.size());
      Part.SharedNames = Names;
      Part.SharedLoc = Outer.isValid() ? Outer : Groups[G][0]->getBeginLoc();
    }
    for (const clang::Stmt *S : Groups[G])
      if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S)) {
        Part.NestLoc = F->getForLoc();
        break;
      }
    distributeNest(std::move(Part), SM, Out);
  }
}

/// Distributes the nest of \p K (see distributeNest) and numbers its parts.
void distribute(KernelRequest K, clang::SourceManager &SM, unsigned &Groups,
                std::vector<KernelRequest> &Out) {
  std::vector<KernelRequest> Parts;
  distributeNest(std::move(K), SM, Parts);
  unsigned Group = Parts.size() > 1 ? ++Groups : 0;
  for (unsigned I = 0; I < Parts.size(); ++I) {
    Parts[I].DistGroup = Group;
    Parts[I].DistPart = I;
    Parts[I].DistParts = static_cast<unsigned>(Parts.size());
    Out.push_back(std::move(Parts[I]));
  }
}

} // namespace

std::vector<KernelRequest> matchPragmas(const std::vector<LoopyPragma> &Pragmas,
                                        clang::ASTContext &Ctx, Reporter &R) {
  clang::SourceManager &SM = Ctx.getSourceManager();
  NodeCollector Collector(Ctx);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Stable: the visitor meets a parent before its children.
  std::stable_sort(Collector.Nodes.begin(), Collector.Nodes.end(),
                   [](const Node &A, const Node &B) { return A.Offset < B.Offset; });

  std::vector<KernelRequest> Requests;
  std::vector<const Node *> RequestNodes;
  std::vector<std::pair<const Node *, const LoopyPragma *>> Shapes;
  std::vector<const Node *> Marked;
  for (const LoopyPragma &P : Pragmas) {
    clang::SourceLocation At = SM.getExpansionLoc(P.Loc);
    if (!SM.isInMainFile(At))
      continue;
    const char *What = P.K == LoopyPragma::Kind::Kernel  ? "kernel"
                       : P.K == LoopyPragma::Kind::Shape ? "shape"
                                                         : "assume";
    const Node *N = nodeAfter(Collector.Nodes, SM.getFileOffset(At));
    const clang::FunctionDecl *F = nullptr;
    const clang::ForStmt *For = nullptr;
    if (N && N->D) {
      F = llvm::dyn_cast<clang::FunctionDecl>(N->D);
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(N->D))
        F = T->getTemplatedDecl();
    } else if (N) {
      For = llvm::dyn_cast<clang::ForStmt>(N->S);
    }
    if (!F && !For) {
      R.error(P.Loc, msg::PragmaNoTarget) << What;
      continue;
    }
    if (P.K != LoopyPragma::Kind::Kernel) {
      Shapes.push_back({N, &P});
      continue;
    }
    if (std::find(Marked.begin(), Marked.end(), N) != Marked.end()) {
      R.error(P.Loc, msg::PragmaKernelTwice) << (F ? "function" : "loop");
      continue;
    }
    Marked.push_back(N);
    if (F && F->getDescribedFunctionTemplate()) {
      R.error(F->getLocation(), msg::PragmaTargetIsTemplate) << F->getName();
      continue;
    }
    if (F && !F->doesThisDeclarationHaveABody()) {
      R.error(F->getLocation(), msg::PragmaTargetIsDeclaration) << F->getName();
      continue;
    }
    KernelRequest K;
    K.Function = F ? F : N->Function;
    K.Root = F ? F->getBody() : For;
    K.WholeFunction = F != nullptr;
    K.Name = P.Name;
    K.PragmaLoc = P.Loc;
    Requests.push_back(std::move(K));
    RequestNodes.push_back(N);
  }
  for (const auto &[N, P] : Shapes) {
    auto It = std::find(RequestNodes.begin(), RequestNodes.end(), N);
    if (It != RequestNodes.end())
      Requests[It - RequestNodes.begin()].Shapes.push_back(P);
    else if (std::find(Marked.begin(), Marked.end(), N) == Marked.end())
      R.error(P->Loc, msg::ShapeWithoutKernel)
          << (P->K == LoopyPragma::Kind::Shape ? "shape" : "assume");
  }
  std::vector<KernelRequest> Split, Distributed;
  for (KernelRequest &K : Requests)
    splitTimeLoop(std::move(K), SM, Split);
  unsigned Groups = 0;
  for (KernelRequest &K : Split)
    distribute(std::move(K), SM, Groups, Distributed);
  return Distributed;
}

} // namespace loopy::extract
