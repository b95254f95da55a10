//===- Instantiate.cpp - isl objects at fixed parameter values ------------===//
#include "Instantiate.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>
#include <stdexcept>

namespace loopy::interp {

static long paramValue(const ParamValues &Params, const char *Name) {
  auto It = Name ? Params.find(Name) : Params.end();
  if (It == Params.end())
    throw std::invalid_argument(std::string("no value for parameter '") +
                                (Name ? Name : "?") + "'");
  return It->second;
}

long evaluate(const isl::aff &A, const ParamValues &Params) {
  isl_ctx *Ctx = A.ctx().get();
  isl_space *Dom = isl_aff_get_domain_space(A.get());
  unsigned N = isl_space_dim(Dom, isl_dim_param);
  isl_point *P = isl_point_zero(isl_space_copy(Dom));
  for (unsigned I = 0; I < N; ++I)
    P = isl_point_set_coordinate_val(
        P, isl_dim_param, I,
        isl_val_int_from_si(
            Ctx, paramValue(Params,
                            isl_space_get_dim_name(Dom, isl_dim_param, I))));
  isl_space_free(Dom);
  isl::val V = isl::manage(isl_aff_eval(A.copy(), P));
  return V.get_num_si();
}

/// \p M with its parameters fixed to their values and projected out.
static isl_map *fixParams(isl_map *M, const ParamValues &Params) {
  isl_ctx *Ctx = isl_map_get_ctx(M);
  unsigned N = isl_map_dim(M, isl_dim_param);
  for (unsigned I = 0; I < N; ++I) {
    long V = paramValue(Params, isl_map_get_dim_name(M, isl_dim_param, I));
    M = isl_map_fix_val(M, isl_dim_param, I, isl_val_int_from_si(Ctx, V));
  }
  return isl_map_project_out(M, isl_dim_param, 0, N);
}

isl::map instantiate(const isl::map &M, const ParamValues &Params) {
  return isl::manage(fixParams(M.copy(), Params));
}

isl::set instantiate(const isl::set &S, const ParamValues &Params) {
  return isl::manage(
      isl_map_range(fixParams(isl_map_from_range(S.copy()), Params)));
}

bool satisfies(const isl::set &Context, const ParamValues &Params) {
  return !instantiate(Context, Params).is_empty();
}

/// Projects out the dimensions of type \p T of \p M that are not in
/// \p Keep and moves those in \p Bound (a subset of Keep) to the
/// parameters, each named \p Names[p] after its original position p.
static isl_map *bindDims(isl_map *M, isl_dim_type T,
                         const std::vector<std::string> &Names,
                         const std::vector<unsigned> &Bound,
                         const std::vector<unsigned> &Keep) {
  auto Has = [](const std::vector<unsigned> &V, unsigned X) {
    return std::find(V.begin(), V.end(), X) != V.end();
  };
  isl_ctx *Ctx = isl_map_get_ctx(M);
  int N = isl_map_dim(M, T);
  for (int P = N - 1; P >= 0; --P)
    if (!Has(Keep, P) && !Has(Bound, P))
      M = isl_map_project_out(M, T, P, 1);
  unsigned Pos = 0;
  for (int P = 0; P < N; ++P) {
    if (!Has(Keep, P) && !Has(Bound, P))
      continue;
    isl_id *Id = isl_id_alloc(Ctx, Names.at(P).c_str(), nullptr);
    M = isl_map_set_dim_id(M, T, Pos, Id);
    if (!Has(Bound, P)) {
      ++Pos;
      continue;
    }
    unsigned NP = isl_map_dim(M, isl_dim_param);
    M = isl_map_move_dims(M, isl_dim_param, NP, T, Pos, 1);
  }
  return M;
}

isl::set sliceSet(const isl::set &S, const std::vector<std::string> &Names,
                  const std::vector<unsigned> &Bound,
                  const std::vector<unsigned> &Free) {
  isl_map *M = isl_map_from_range(S.copy());
  M = bindDims(M, isl_dim_out, Names, Bound, Free);
  return isl::manage(isl_map_range(M));
}

isl::map inputsToParams(const isl::map &M,
                        const std::vector<std::string> &Names,
                        const std::vector<unsigned> &Keep) {
  return isl::manage(bindDims(M.copy(), isl_dim_in, Names, Keep, Keep));
}

std::vector<unsigned> tuplePositions(const Statement &S,
                                     const std::vector<unsigned> &Indices) {
  std::vector<unsigned> P;
  for (unsigned I : Indices)
    P.push_back(std::find(S.Indices.begin(), S.Indices.end(), I) -
                S.Indices.begin());
  std::sort(P.begin(), P.end());
  return P;
}

} // namespace loopy::interp
