//===- RaceCheck.cpp - Writes must be injective in the output indices ----===//
//
// A statement writes one element per point of its output indices (the
// reduction indices fold into that one write). If two different output
// points write the same element, the parallel threads computing them race.
//
//===----------------------------------------------------------------------===//
#include "loopy/Analysis/Checks.h"
#include "loopy/Support/Isl.h"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>

namespace loopy {

/// { S[out] -> A[...] }: the write of \p S as a function of its output
/// indices alone (the written subscripts never use reduction indices).
static isl::map writeOnOutputs(const Statement &S) {
  isl_ctx *C = S.Write.Relation.ctx().get();
  isl::map W = S.Write.Relation;
  for (int I = S.Indices.size() - 1; I >= 0; --I)
    if (std::find(S.OutputIndices.begin(), S.OutputIndices.end(),
                  S.Indices[I]) == S.OutputIndices.end())
      W = take(C, isl_map_project_out(W.release(), isl_dim_in, I, 1));
  return W;
}

static bool checkStatement(const Kernel &K, const Statement &S,
                           DiagnosticEngine &Diags) {
  isl::map Out = writeOnOutputs(S);
  if (Out.is_injective())
    return true;
  // { [o1, o2] : o1 != o2 and both write one element }
  isl::map Same = Out.apply_range(Out.reverse());
  isl::space Sp = Same.get_space();
  isl::map Id = take(Sp.ctx(), isl_map_identity(Sp.release()));
  isl::set Pairs = Same.subtract(Id).wrap().flatten();
  if (Pairs.is_empty())
    return true;
  isl::point P = smallestPoint(Pairs);
  std::vector<std::string> Names;
  for (unsigned Pos : S.OutputIndices)
    Names.push_back(K.IndexNames[Pos]);
  unsigned N = Names.size();
  std::string Where = describeParams(Pairs, P);
  Diags.error(S.Write.Loc,
              "write to " + quote(S.Write.Spelling) +
                  " is not injective in the output indices: iterations (" +
                  describeValues(Names, coordinates(P, isl_dim_set, 0, N)) +
                  ") and (" +
                  describeValues(Names, coordinates(P, isl_dim_set, N, N)) +
                  ") write the same element" +
                  (Where.empty() ? "" : " when " + Where) +
                  ", so their threads would race");
  return false;
}

bool checkWritesRaceFree(const Kernel &K, DiagnosticEngine &Diags) {
  bool Ok = true;
  for (const Statement &S : K.Stmts)
    Ok &= checkStatement(K, S, Diags);
  for (size_t I = 0; I < K.Stmts.size(); ++I)
    for (size_t J = I + 1; J < K.Stmts.size(); ++J) {
      const Statement &A = K.Stmts[I], &B = K.Stmts[J];
      if (A.Write.Arg != B.Write.Arg)
        continue;
      isl::set Both =
          A.Write.Relation.range().intersect(B.Write.Relation.range());
      if (Both.is_empty())
        continue;
      isl::point P = smallestPoint(Both);
      std::string Where = describeParams(Both, P);
      unsigned Rank = Both.tuple_dim();
      Diags.error(B.Write.Loc,
                  "element " + K.Args[A.Write.Arg].Name + "[" +
                      joinValues(coordinates(P, isl_dim_set, 0, Rank)) +
                      "] is written by two statements" +
                      (Where.empty() ? "" : " when " + Where) +
                      "; each element may have one writer");
      Diags.note(A.Write.Loc, "the other write is here");
      Ok = false;
    }
  return Ok;
}

} // namespace loopy
