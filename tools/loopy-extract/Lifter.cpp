//===- Lifter.cpp - The lifter's driver, arguments and checks ------------===//
#include "Accumulate.h"
#include "EmptyRanges.h"
#include "KernelIsl.h"
#include "Lifter.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace loopy::extract {

namespace {

/// Names a .loop kernel or its isl text cannot use for an index or an
/// argument.
const std::set<std::string> &reservedNames() {
  static const std::set<std::string> Names = {
      "kernel", "domain", "assume", "index", "in", "out", "inout", "f16",
      "bf16", "f32", "f64", "i8", "u8", "i16", "u16", "i32", "i64", "sum", "prod", "max", "min",
      "select", "sqrt", "exp", "log", "sin", "cos", "tanh", "pow", "fma",
      "abs", "layout", "strides", "and", "or", "not", "exists", "mod",
      "floor", "ceil", "infty", "true", "false", "implies", "xor"};
  return Names;
}

/// True if \p S is made of ASCII letters, digits and '_' (as a C
/// identifier, it does not start with a digit).
bool isAsciiName(const std::string &S) {
  return std::all_of(S.begin(), S.end(), [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  });
}

/// \p CName with every character outside ASCII (an identifier with a
/// universal character name or UTF-8) spelled as `_uXXXX`, its code point.
std::string asciiName(const std::string &CName) {
  std::string N;
  for (size_t I = 0; I < CName.size();) {
    unsigned char C = static_cast<unsigned char>(CName[I]);
    if (C < 0x80) {
      N += CName[I++];
      continue;
    }
    unsigned Len = C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : C >= 0xC0 ? 2 : 1;
    uint32_t Code = Len == 1 ? C : C & (0x7F >> Len);
    for (unsigned K = 1; K < Len && I + K < CName.size(); ++K)
      Code = Code << 6 | (static_cast<unsigned char>(CName[I + K]) & 0x3F);
    char Buf[16];
    std::snprintf(Buf, sizeof Buf, "_u%04X", Code);
    N += Buf;
    I += Len;
  }
  return N;
}

} // namespace

Lifter::Lifter(const KernelRequest &Req, clang::ASTContext &Ctx, Reporter &R)
    : Req(Req), Ctx(Ctx), SM(Ctx.getSourceManager()), R(R) {}

LiftedKernel Lifter::lift() {
  std::string Name = Req.Name.empty() ? Req.Function->getNameAsString() : Req.Name;
  if (!isAsciiName(Name)) {
    R.error(Req.Name.empty() ? Req.Function->getLocation() : Req.PragmaLoc,
            msg::KernelNameNotAscii)
        << Name;
    throw LiftFailed();
  }
  K.Name = reservedNames().count(Name) ? Name + "_" : Name;
  K.Loc = Req.PragmaLoc;
  K.HostNote = Req.HostNote;
  if (Req.WholeFunction)
    collectLoops(Req.Root);
  else
    registerLoop(llvm::cast<clang::ForStmt>(Req.Root));
  // The statements first: a `while` loop is reported as such, not as a
  // missing `for` loop.
  Frames.emplace_back();
  if (!Req.WholeFunction)
    findPrivateScalars();
  stmt(Req.Root, Req.WholeFunction);
  if (K.Loops.empty()) {
    R.error(Req.Function->getLocation(), msg::NoLoop)
        << Req.Function->getNameAsString();
    throw LiftFailed();
  }
  finalizeRoot();
  std::stable_sort(Finals.begin(), Finals.end(),
                   [&](const Statement &A, const Statement &B) {
                     return SM.isBeforeInTranslationUnit(A.Range.getBegin(),
                                                         B.Range.getBegin());
                   });
  for (Statement &S : Finals) {
    S.Value = mergeSums(S.Value);
    K.Arrays[S.Array].Written = true;
    bool Infinite = false;
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Read)
        K.Arrays[N.Id].Read = true;
      Infinite |= N.K == LExpr::Kind::Inf;
    });
    if (Infinite) {
      R.error(S.Range, msg::Infinity);
      Failed = true;
    }
  }
  K.Stmts = Finals;
  // With a statement left out, the pragmas and aliasing may concern what
  // is missing; the dependences among the others are still real.
  if (!Failed)
    applyPragmas();
  if (!Failed && !Req.WholeFunction)
    assumeEnclosingLoops();
  if (!HeaderFailed && !Failed)
    checkDoubleWrites();
  if (!HeaderFailed && !Failed)
    splitRepeatedReductions();
  if (!HeaderFailed && !Failed)
    splitEmptyRanges();
  if (!HeaderFailed)
    checkElementConflicts();
  if (Failed)
    throw LiftFailed();
  checkAliasing();
  return std::move(K);
}

std::string Lifter::uniqueName(const std::string &CName) {
  std::string N = asciiName(CName);
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

std::optional<Poly> Lifter::extentFromType(const clang::QualType &T) {
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
    A.TypeExtents.push_back(Orig->isArrayType() ? extentFromType(Orig)
                                                : std::nullopt);
    Elem = T->getPointeeType();
    A.Restrict = T.isRestrictQualified();
  } else {
    Elem = T;
    A.DistinctObject = true;
  }
  while (const clang::ArrayType *AT = Ctx.getAsArrayType(Elem)) {
    A.TypeExtents.push_back(extentFromType(Elem));
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

void Lifter::checkElementConflicts() {
  for (unsigned Id = 0; Id < K.Arrays.size(); ++Id) try {
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
    // The first access that meets the written element in another
    // iteration, with the two iterations as isl finds them; else the
    // first access to another element at all.
    const Access *Other = nullptr;
    IslContext Isl;
    for (const Access &X : All) {
      if (*X.Subs == *Written->Subs)
        continue;
      if (!Other)
        Other = &X;
      if (std::optional<Conflict> C =
              findConflict(K, Isl.get(), *Written->Subs, *X.Subs)) {
        R.error(X.Range, msg::OtherElementAt)
            << X.Text << (X.Write ? 1 : 0) << A.CName << Written->Text
            << "(" + C->Second + ")" << "(" + C->First + ")"
            << (C->Params.empty() ? "" : " when " + C->Params);
        throw LiftFailed();
      }
    }
    if (Other) {
      R.error(Other->Range, msg::OtherElement)
          << Other->Text << (Other->Write ? 1 : 0) << A.CName << Written->Text;
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
  } catch (LiftFailed &) {
    // One conflict per array; the other arrays are still checked.
    Failed = true;
  }
}

void Lifter::checkDoubleWrites() {
  IslContext Isl;
  std::vector<std::string> Names = K.symbolNames();
  LiftedKernel Second = K;
  for (const Loop &L : K.Loops)
    Second.Symbols[L.Index].Name = "__q_" + Names[L.Index];
  std::vector<std::string> Names2 = Second.symbolNames();
  unsigned N = static_cast<unsigned>(K.Loops.size());
  std::string Tuple, Tuple2;
  for (const Loop &L : K.Loops) {
    Tuple += (Tuple.empty() ? "" : ", ") + Names[L.Index];
    Tuple2 += ", " + Names2[L.Index];
  }
  auto Affine = [](const std::vector<Poly> &Ps) {
    return std::all_of(Ps.begin(), Ps.end(),
                       [](const Poly &P) { return P.isAffine(); });
  };
  for (size_t A = 0; A < K.Stmts.size(); ++A)
    for (size_t B = A + 1; B < K.Stmts.size(); ++B) {
      const Statement &S1 = K.Stmts[A], &S2 = K.Stmts[B];
      if (S1.Array != S2.Array || S1.Subs == S2.Subs ||
          S1.Subs.size() != S2.Subs.size() || !Affine(S1.Subs) ||
          !Affine(S2.Subs))
        continue;
      // The iterations (first) and (second) that write one element.
      std::string C =
          "(" + K.constraints(N) + ") and (" + Second.constraints(N) + ")";
      if (!K.Assumption.empty())
        C += " and (" + K.Assumption + ")";
      for (size_t L = 0; L < S1.Subs.size(); ++L)
        C += " and " + S1.Subs[L].str(Names, "*") + " = " +
             S2.Subs[L].str(Names2, "*");
      isl::set Both(Isl.get(),
                    K.islParams() + "{ [" + Tuple + Tuple2 + "] : " + C + " }");
      if (Both.is_null() || Both.is_empty())
        continue;
      // The same value where the two iterations agree in the indices
      // that the subscripts use.
      std::string Differ;
      std::vector<unsigned> Used;
      for (unsigned D = 0; D < N; ++D) {
        unsigned Id = K.Loops[D].Index;
        bool Uses = false;
        for (const std::vector<Poly> *Subs : {&S1.Subs, &S2.Subs})
          for (const Poly &P : *Subs)
            Uses |= P.uses(Id);
        if (!Uses)
          continue;
        Used.push_back(D);
        Differ +=
            (Differ.empty() ? "" : " or ") + Names[Id] + " != " + Names2[Id];
      }
      // Writes in other iterations are dependences, which
      // checkElementConflicts reports.
      if (!Differ.empty() &&
          !Both.intersect(isl::set(Isl.get(), K.islParams() + "{ [" + Tuple +
                                                  Tuple2 + "] : " + Differ +
                                                  " }"))
               .is_empty())
        continue;
      bool Same = sameValue(S1.Value, S2.Value);
      isl::point P = smallestPoint(Both);
      std::vector<long> Vs = coordinates(P, isl_dim_set, 0, N);
      std::vector<std::string> UsedNames;
      std::vector<long> UsedValues;
      for (unsigned D : Used) {
        UsedNames.push_back(Names[K.Loops[D].Index]);
        UsedValues.push_back(Vs[D]);
      }
      std::string At = describeValues(UsedNames, UsedValues);
      std::string Params = describeParams(Both, P);
      Params = Params.empty() ? "" : " with " + Params;
      if (Same && splitOff(B, Both))
        return;
      if (Same) {
        R.error(S2.Range, msg::SameValueTwice)
            << S2.What << S1.What << At << Params;
      } else {
        R.error(S2.Range, msg::OtherValueTwice)
            << S2.What << S1.What << At << Params;
      }
      R.note(S1.Range, msg::OtherWriteHere) << S1.What;
      Failed = true;
      return;
    }
}

void Lifter::splitRepeatedReductions() {
  for (size_t I = 0; I < K.Stmts.size(); ++I) {
    const Statement &S = K.Stmts[I];
    std::vector<LExprPtr> Reductions;
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Reduce)
        Reductions.push_back(
            std::shared_ptr<const LExpr>(std::shared_ptr<const LExpr>(), &N));
    });
    LExprPtr Twice;
    for (size_t A = 0; A < Reductions.size() && !Twice; ++A)
      for (size_t B = A + 1; B < Reductions.size() && !Twice; ++B)
        if (sameValue(Reductions[A], Reductions[B]))
          Twice = Reductions[A];
    if (!Twice || Twice->Type != K.Arrays[S.Array].Elem)
      continue;
    // The first kernel stores the reduction in the element; the second
    // reads it there in each place it was used.
    LExprPtr Stored = makeRead(S.Array, S.Subs, Twice->Type, S.Range);
    std::function<LExprPtr(const LExprPtr &)> Put =
        [&](const LExprPtr &E) -> LExprPtr {
      if (sameValue(E, Twice))
        return Stored;
      auto N = std::make_shared<LExpr>(*E);
      for (LExprPtr &Op : N->Ops)
        Op = Put(Op);
      return N;
    };
    LiftedKernel Rest = K;
    Rest.Stmts[I].Value = Put(S.Value);
    Rest.Arrays[S.Array].Read = true;
    K.Stmts = {S};
    K.Stmts[0].Value = std::make_shared<LExpr>(*Twice);
    for (ArrayArg &A : K.Arrays)
      A.Read = A.Written = false;
    K.Arrays[S.Array].Written = true;
    walk(K.Stmts[0].Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Read)
        K.Arrays[N.Id].Read = true;
    });
    SplitParts.insert(SplitParts.begin(), std::move(Rest));
    return;
  }
}

bool Lifter::splitOff(size_t Stmt, const isl::set &Both) {
  // Both: { [first, second] } over the indices of the iterations of the
  // two statements that write one element.
  isl::ctx Ctx = Both.ctx();
  std::vector<std::string> Names = K.symbolNames();
  std::string Tuple, Tuple2;
  for (const Loop &L : K.Loops) {
    Tuple += (Tuple.empty() ? "" : ", ") + Names[L.Index];
    Tuple2 += ", __q_" + Names[L.Index];
  }
  std::string Second = Tuple2.substr(2);
  isl::set Overlap = Both.apply(isl::map(
      Ctx, K.islParams() + "{ [" + Tuple + Tuple2 + "] -> [" + Second + "] }"));
  auto Unnamed = [&](const LiftedKernel &Of) {
    return isl::set(Ctx, Of.islDomain())
        .apply(isl::map(Ctx, K.islParams() + "{ [" + Tuple + "] -> [" + Tuple +
                                 "] }"));
  };
  isl::set Want = Unnamed(K).subtract(Overlap);
  for (unsigned D = 0; D < K.Loops.size(); ++D)
    for (bool Upper : {false, true}) {
      std::vector<Bound> &Bounds = Upper ? K.Loops[D].Upper : K.Loops[D].Lower;
      for (size_t I = 0; I < Bounds.size(); ++I) {
        if (Bounds[I].Strict)
          continue;
        LiftedKernel Part = K;
        std::vector<Bound> &PB =
            Upper ? Part.Loops[D].Upper : Part.Loops[D].Lower;
        PB[I].Strict = true;
        if (!Unnamed(Part).is_equal(Want))
          continue;
        Part.Stmts = {K.Stmts[Stmt]};
        K.Stmts.erase(K.Stmts.begin() + Stmt);
        for (LiftedKernel *X : {&K, &Part}) {
          for (ArrayArg &A : X->Arrays)
            A.Read = A.Written = false;
          for (const Statement &S : X->Stmts) {
            X->Arrays[S.Array].Written = true;
            walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
              if (N.K == LExpr::Kind::Read)
                X->Arrays[N.Id].Read = true;
            });
          }
        }
        SplitParts.push_back(std::move(Part));
        return true;
      }
    }
  return false;
}

void Lifter::splitEmptyRanges() {
  IslContext Isl;
  for (size_t S = 0; S < K.Stmts.size(); ++S)
    if (std::optional<LiftedKernel> Part = emptyRangeKernel(K, S, Isl.get())) {
      K.Stmts[S].EmptySplit = true;
      SplitParts.push_back(std::move(*Part));
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
