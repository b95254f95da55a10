//===- LiftPragmas.cpp - The shape and assume pragmas of a kernel ---------===//
#include "Lifter.h"
#include "PragmaExpr.h"

#include "clang/AST/Decl.h"

namespace loopy::extract {

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

} // namespace loopy::extract
