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

} // namespace loopy::extract
