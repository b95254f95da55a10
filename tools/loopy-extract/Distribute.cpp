//===- Distribute.cpp - The parts of a distributed loop nest --------------===//
#include "Distribute.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <set>

namespace loopy::extract {

namespace {

/// One access of a part to an array element, in .loop coordinates.
struct Access {
  const ArrayArg *Array;
  std::vector<Poly> Coords;
  bool Write;
  clang::SourceRange Range;
  /// The C text of the element written; empty for a read.
  std::string Written;
};

std::vector<Access> accesses(const LiftedKernel &K) {
  std::vector<Access> All;
  for (const Statement &S : K.Stmts) {
    const ArrayArg &A = K.Arrays[S.Array];
    All.push_back({&A, A.coordinates(S.Subs), true, S.Range, S.What});
    walk(S.Value, [&](const LExpr &N, const std::vector<unsigned> &) {
      if (N.K == LExpr::Kind::Read)
        All.push_back({&K.Arrays[N.Id], K.Arrays[N.Id].coordinates(N.Subs),
                       false, N.Range, ""});
    });
  }
  return All;
}

bool affine(const std::vector<Poly> &Ps) {
  return std::all_of(Ps.begin(), Ps.end(),
                     [](const Poly &P) { return P.isAffine(); });
}

std::string text(clang::ASTContext &Ctx, clang::SourceRange R) {
  return clang::Lexer::getSourceText(
             clang::CharSourceRange::getTokenRange(R), Ctx.getSourceManager(),
             Ctx.getLangOpts())
      .str();
}

std::string accessText(clang::ASTContext &Ctx, const Access &A) {
  return A.Write ? A.Written : text(Ctx, A.Range);
}

std::string quotedList(const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "'" : ", '") + N + "'";
  return S;
}

/// Checks the parts \p A (earlier) and \p B, which share their first
/// \p Shared loops.
void checkPair(const LiftedKernel &A, const LiftedKernel &B, unsigned Shared,
               const std::vector<std::string> &SharedNames,
               clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  // B's indices renamed apart; the parameters are shared by name.
  LiftedKernel B2 = B;
  for (const Loop &L : B2.Loops)
    B2.Symbols[L.Index].Name = "__p_" + B2.Symbols[L.Index].Name;
  std::vector<std::string> NamesA = A.symbolNames(), NamesB = B2.symbolNames();
  std::set<std::string> ParamSet;
  std::string Params;
  for (const LiftedKernel *K : {&A, &B})
    for (const Symbol &S : K->Symbols)
      if (S.K == Symbol::Kind::Param && ParamSet.insert(S.Name).second)
        Params += (Params.empty() ? "" : ", ") + S.Name;
  std::string Tuple;
  std::vector<std::string> Dims;
  for (const Loop &L : A.Loops)
    Dims.push_back(NamesA[L.Index]);
  for (const Loop &L : B2.Loops)
    Dims.push_back(NamesB[L.Index]);
  for (const std::string &D : Dims)
    Tuple += (Tuple.empty() ? "" : ", ") + D;
  std::string Domains = "(" + A.constraints(A.Loops.size()) + ") and (" +
                        B2.constraints(B2.Loops.size()) + ")";
  for (const LiftedKernel *K : {&A, &B})
    if (!K->Assumption.empty())
      Domains += " and (" + K->Assumption + ")";
  // B's iteration comes first in the C code: it is earlier in the shared
  // loops (later, for a loop that counts down).
  std::string Before;
  for (unsigned L = 0; L < Shared; ++L) {
    std::string Term;
    for (unsigned M = 0; M < L; ++M)
      Term += NamesB[B2.Loops[M].Index] + " = " + NamesA[A.Loops[M].Index] +
              " and ";
    Term += NamesB[B2.Loops[L].Index] + (A.Loops[L].Down ? " > " : " < ") +
            NamesA[A.Loops[L].Index];
    Before += (Before.empty() ? "(" : " or (") + Term + ")";
  }
  std::vector<Access> InA = accesses(A), InB = accesses(B);
  for (const Access &X : InA)
    for (const Access &Y : InB) {
      if (X.Array->Decl != Y.Array->Decl || !(X.Write || Y.Write))
        continue;
      if (X.Coords.size() != Y.Coords.size() || !affine(X.Coords) ||
          !affine(Y.Coords)) {
        R.error(X.Range, msg::DistributedUnknown)
            << X.Array->CName << accessText(Ctx, X) << accessText(Ctx, Y)
            << quotedList(SharedNames);
        throw LiftFailed();
      }
      std::string C = Domains + " and (" + Before + ")";
      for (size_t D = 0; D < X.Coords.size(); ++D)
        C += " and " + X.Coords[D].str(NamesA, "*") + " = " +
             Y.Coords[D].str(NamesB, "*");
      isl::set S(IslCtx, "[" + Params + "] -> { [" + Tuple + "] : " + C + " }");
      if (S.is_empty())
        continue;
      isl::point P = smallestPoint(S);
      unsigned NA = static_cast<unsigned>(A.Loops.size());
      std::vector<long> Vs =
          coordinates(P, isl_dim_set, 0, NA + static_cast<unsigned>(B.Loops.size()));
      std::vector<std::string> NA_, NB_;
      for (const Loop &L : A.Loops)
        NA_.push_back(A.Symbols[L.Index].Name);
      for (const Loop &L : B.Loops)
        NB_.push_back(B.Symbols[L.Index].Name);
      std::string ParamsAt = describeParams(S, P);
      R.error(X.Range, msg::DistributedDependence)
          << accessText(Ctx, X) << (X.Write ? 1 : 0) << X.Array->CName
          << accessText(Ctx, Y) << (Y.Write ? 1 : 0) << quotedList(SharedNames)
          << describeValues(NA_, std::vector<long>(Vs.begin(), Vs.begin() + NA))
          << describeValues(NB_, std::vector<long>(Vs.begin() + NA, Vs.end()))
          << (ParamsAt.empty() ? "" : " when " + ParamsAt);
      R.note(Y.Range, msg::DistributedAccess) << accessText(Ctx, Y);
      throw LiftFailed();
    }
}

} // namespace

void checkDistribution(const std::vector<DistributedPart> &Parts,
                       clang::ASTContext &Ctx, isl::ctx IslCtx, Reporter &R) {
  for (size_t A = 0; A < Parts.size(); ++A) {
    unsigned Shared = UINT_MAX;
    const std::vector<std::string> *Names = nullptr;
    for (size_t B = A + 1; B < Parts.size(); ++B) {
      if (Parts[B].Shared < Shared) {
        Shared = Parts[B].Shared;
        Names = &Parts[B].SharedNames;
      }
      if (Shared > 0)
        checkPair(*Parts[A].K, *Parts[B].K, Shared, *Names, Ctx, IslCtx, R);
    }
  }
}

} // namespace loopy::extract
