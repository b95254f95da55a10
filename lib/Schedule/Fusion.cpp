//===- Fusion.cpp - Statements that run as one kernel function ------------===//
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>
#include <functional>

namespace loopy {

namespace {

/// \p X { A[...] } with its tuple named \p Name.
isl::set named(const isl::set &X, const std::string &Name) {
  return isl::manage(isl_set_set_tuple_name(X.copy(), Name.c_str()));
}

/// \p X { A[...] -> B[...] } with its domain tuple named \p Name (and its
/// range tuple \p Range where given).
isl::map named(const isl::map &X, const std::string &Name,
               const char *Range = nullptr) {
  isl_map *M = isl_map_set_tuple_name(X.copy(), isl_dim_in, Name.c_str());
  if (Range)
    M = isl_map_set_tuple_name(M, isl_dim_out, Range);
  return isl::manage(M);
}

bool touches(const Statement &S, unsigned Arg) {
  return S.Write.Arg == Arg ||
         std::any_of(S.Reads.begin(), S.Reads.end(),
                     [&](const Access &R) { return R.Arg == Arg; });
}

} // namespace

std::string fusionRefusal(const Kernel &K, const Statement &A,
                          const Statement &B) {
  if (A.Indices != B.Indices)
    return "statements " + A.Name + " and " + B.Name +
           " run over different indices";
  if (A.OutputIndices != B.OutputIndices)
    return "statements " + A.Name + " and " + B.Name +
           " have different output indices";
  if (A.ReductionIndices != B.ReductionIndices)
    return "statements " + A.Name + " and " + B.Name +
           " have different reduction indices";
  const std::string T = "S";
  if (!named(A.Domain, T).is_equal(named(B.Domain, T)))
    return "the domains of statements " + A.Name + " and " + B.Name +
           " differ";
  if (!named(A.Write.Relation, T, "A").is_equal(
          named(B.Write.Relation, T, "A")))
    return "statements " + A.Name + " and " + B.Name +
           " index their outputs differently (" + A.Write.Spelling + ", " +
           B.Write.Spelling + "): one mapping of the outputs cannot serve both";
  if (touches(B, A.Write.Arg))
    return "statement " + B.Name + " uses " + quote(K.Args[A.Write.Arg].Name) +
           ", which statement " + A.Name + " writes";
  if (touches(A, B.Write.Arg))
    return "statement " + A.Name + " uses " + quote(K.Args[B.Write.Arg].Name) +
           ", which statement " + B.Name + " writes";
  return "";
}

std::optional<FusedKernel> fuseStatements(const Kernel &K) {
  std::vector<std::vector<unsigned>> Groups;
  for (unsigned I = 0; I < K.Stmts.size(); ++I) {
    auto Joins = [&](const std::vector<unsigned> &G) {
      return std::all_of(G.begin(), G.end(), [&](unsigned J) {
        return fusionRefusal(K, K.Stmts[J], K.Stmts[I]).empty();
      });
    };
    auto G = std::find_if(Groups.begin(), Groups.end(), Joins);
    if (G == Groups.end())
      Groups.push_back({I});
    else
      G->push_back(I);
  }
  if (Groups.size() == K.Stmts.size())
    return std::nullopt;

  FusedKernel Out{cloneKernel(K), Groups, ""};
  Out.K.Stmts.clear();
  for (const std::vector<unsigned> &G : Groups) {
    const Statement &First = K.Stmts[G[0]];
    Statement N;
    N.Loc = First.Loc;
    N.Indices = First.Indices;
    N.OutputIndices = First.OutputIndices;
    N.ReductionIndices = First.ReductionIndices;
    if (G.size() == 1) {
      N.Name = First.Name;
      N.Domain = First.Domain;
      N.Write = First.Write;
      N.Reads = First.Reads;
      N.Rhs = cloneExpr(*First.Rhs);
      Out.K.Stmts.push_back(std::move(N));
      continue;
    }
    std::string Tag = "fuse(";
    for (size_t I = 0; I < G.size(); ++I) {
      N.Name += (I ? "_" : "") + K.Stmts[G[I]].Name;
      Tag += (I ? "," : "") + K.Stmts[G[I]].Name;
    }
    Out.Tag += (Out.Tag.empty() ? "" : " ") + Tag + ")";
    N.Domain = named(First.Domain, N.Name);
    for (unsigned SI : G) {
      const Statement &S = K.Stmts[SI];
      // The group's reads: one per array and access relation.
      std::vector<unsigned> Pos;
      for (const Access &R : S.Reads) {
        Access A = R;
        A.Relation = named(R.Relation, N.Name);
        auto Same = std::find_if(N.Reads.begin(), N.Reads.end(),
                                 [&](const Access &X) {
                                   return X.Arg == A.Arg &&
                                          X.Relation.is_equal(A.Relation);
                                 });
        Pos.push_back(Same - N.Reads.begin());
        if (Same == N.Reads.end())
          N.Reads.push_back(std::move(A));
      }
      ExprPtr Rhs = cloneExpr(*S.Rhs);
      std::function<void(Expr &)> Renumber = [&](Expr &E) {
        if (E.Kind == ExprKind::Read)
          E.AccessId = Pos[E.AccessId];
        for (ExprPtr &O : E.Operands)
          Renumber(*O);
      };
      Renumber(*Rhs);
      Access W = S.Write;
      W.Relation = named(S.Write.Relation, N.Name);
      if (SI == G[0]) {
        N.Write = std::move(W);
        N.Rhs = std::move(Rhs);
      } else {
        N.MoreOutputs.push_back({std::move(W), std::move(Rhs)});
      }
    }
    Out.K.Stmts.push_back(std::move(N));
  }
  return Out;
}

std::vector<bool> readsAtEveryPoint(const Statement &S) {
  std::vector<bool> Every(S.Reads.size(), S.ReductionIndices.empty());
  std::function<void(const Expr &, bool)> Mark = [&](const Expr &E,
                                                     bool Under) {
    Under = Under || E.Kind == ExprKind::Reduce;
    if (E.Kind == ExprKind::Read && Under && E.AccessId < Every.size())
      Every[E.AccessId] = true;
    for (const ExprPtr &O : E.Operands)
      Mark(*O, Under);
  };
  for (unsigned O = 0; O < outputCount(S); ++O)
    Mark(outputRhs(S, O), false);
  return Every;
}

} // namespace loopy
