//===- KernelIsl.cpp - isl objects of a lifted kernel ---------------------===//
#include "KernelIsl.h"

#include "loopy/Support/Isl.h"

namespace loopy::extract {

namespace {

/// "[i, j, k]": the kernel's indices as an isl tuple.
std::string indexTuple(const LiftedKernel &K) {
  std::string T;
  for (const Loop &L : K.Loops)
    T += (T.empty() ? "" : ", ") + K.Symbols[L.Index].Name;
  return "[" + T + "]";
}

} // namespace

std::string constraintText(const isl::set &S) {
  char *Raw = isl_set_to_str(S.get());
  std::string T = Raw ? Raw : "";
  free(Raw);
  size_t Colon = T.find(':'), Close = T.rfind('}');
  if (Colon == std::string::npos || Close == std::string::npos)
    return "";
  T = T.substr(Colon + 1, Close - Colon - 1);
  T.erase(0, T.find_first_not_of(' '));
  T.erase(T.find_last_not_of(' ') + 1);
  return T;
}

isl::map indexMap(const LiftedKernel &K, isl::ctx Ctx,
                  const std::vector<Poly> &Exprs) {
  std::vector<std::string> Names = K.symbolNames();
  std::string Out;
  for (const Poly &E : Exprs)
    Out += (Out.empty() ? "" : ", ") + E.str(Names, "*");
  return isl::map(Ctx, K.islParams() + "{ " + indexTuple(K) + " -> [" + Out + "] }");
}

isl::set domainWhere(const LiftedKernel &K, isl::ctx Ctx,
                     const std::string &Constraint) {
  return isl::set(Ctx, K.islDomain()).intersect(isl::set(
      Ctx, K.islParams() + "{ " + indexTuple(K) + " : " + Constraint + " }"));
}

std::string witness(const isl::set &S, const std::vector<std::string> &Names) {
  isl::point P = smallestPoint(S);
  std::string Dims = describeValues(
      Names, coordinates(P, isl_dim_set, 0, static_cast<unsigned>(Names.size())));
  std::string Params = describeParams(S, P);
  if (Dims.empty())
    return Params;
  return Params.empty() ? Dims : Dims + " with " + Params;
}

std::optional<Conflict> findConflict(const LiftedKernel &K, isl::ctx Ctx,
                                     const std::vector<Poly> &W,
                                     const std::vector<Poly> &A) {
  // The second iteration's indices, renamed apart.
  LiftedKernel Second = K;
  std::vector<std::string> Names = K.symbolNames();
  for (const Loop &L : K.Loops)
    Second.Symbols[L.Index].Name = "__q_" + Names[L.Index];
  std::vector<std::string> Names2 = Second.symbolNames();
  // The loops each access uses; the iterations differ in one of them.
  std::vector<unsigned> UsedW, UsedA;
  std::string Tuple, Tuple2, Differ;
  auto Uses = [](const std::vector<Poly> &Subs, unsigned Id) {
    for (const Poly &P : Subs)
      if (P.uses(Id))
        return true;
    return false;
  };
  for (unsigned D = 0; D < K.Loops.size(); ++D) {
    unsigned Id = K.Loops[D].Index;
    Tuple += (Tuple.empty() ? "" : ", ") + Names[Id];
    Tuple2 += ", " + Names2[Id];
    if (Uses(W, Id))
      UsedW.push_back(D);
    if (Uses(A, Id))
      UsedA.push_back(D);
    if (Uses(W, Id) || Uses(A, Id))
      Differ += (Differ.empty() ? "" : " or ") + Names[Id] + " != " + Names2[Id];
  }
  if (Differ.empty() || W.size() != A.size())
    return std::nullopt;
  // A flat subscript with a stride parameter is not Presburger until the
  // shape splits it.
  for (const std::vector<Poly> *Subs : {&W, &A})
    for (const Poly &P : *Subs)
      if (!P.isAffine())
        return std::nullopt;
  unsigned N = static_cast<unsigned>(K.Loops.size());
  std::string C = "(" + K.constraints(N) + ") and (" + Second.constraints(N) +
                  ") and (" + Differ + ")";
  if (!K.Assumption.empty())
    C += " and (" + K.Assumption + ")";
  for (size_t L = 0; L < W.size(); ++L)
    C += " and " + W[L].str(Names, "*") + " = " + A[L].str(Names2, "*");
  isl::set S(Ctx, K.islParams() + "{ [" + Tuple + Tuple2 + "] : " + C + " }");
  if (S.is_empty())
    return std::nullopt;
  isl::point P = smallestPoint(S);
  std::vector<long> Values = coordinates(P, isl_dim_set, 0, 2 * N);
  auto Describe = [&](const std::vector<unsigned> &Used, unsigned Offset) {
    std::vector<std::string> UsedNames;
    std::vector<long> Vs;
    for (unsigned D : Used) {
      UsedNames.push_back(Names[K.Loops[D].Index]);
      Vs.push_back(Values[Offset + D]);
    }
    return describeValues(UsedNames, Vs);
  };
  return Conflict{Describe(UsedW, 0), Describe(UsedA, N), describeParams(S, P)};
}

} // namespace loopy::extract
