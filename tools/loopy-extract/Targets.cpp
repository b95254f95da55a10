//===- Targets.cpp - Which function or loop each pragma marks -------------===//
#include "Targets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace loopy::extract {

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
  return Requests;
}

} // namespace loopy::extract
