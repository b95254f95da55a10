//===- Instantiate.cpp - isl objects at fixed parameter values ------------===//
#include "Instantiate.h"
#include "loopy/Support/Isl.h"

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
  isl::space Dom = take(Ctx, isl_aff_get_domain_space(A.get()));
  unsigned N = checkSize(Ctx, isl_space_dim(Dom.get(), isl_dim_param));
  isl::point P = take(Ctx, isl_point_zero(Dom.copy()));
  for (unsigned I = 0; I < N; ++I) {
    long V = paramValue(Params, isl_space_get_dim_name(Dom.get(),
                                                      isl_dim_param, I));
    P = take(Ctx, isl_point_set_coordinate_val(P.release(), isl_dim_param, I,
                                               isl::val(A.ctx(), V).release()));
  }
  return toLong(A.eval(P));
}

/// \p M with its parameters fixed to their values and projected out.
static isl::map fixParams(isl::map M, const ParamValues &Params) {
  isl_ctx *Ctx = M.ctx().get();
  unsigned N = checkSize(Ctx, isl_map_dim(M.get(), isl_dim_param));
  for (unsigned I = 0; I < N; ++I) {
    long V =
        paramValue(Params, isl_map_get_dim_name(M.get(), isl_dim_param, I));
    M = take(Ctx, isl_map_fix_val(M.release(), isl_dim_param, I,
                                  isl::val(M.ctx(), V).release()));
  }
  return take(Ctx, isl_map_project_out(M.release(), isl_dim_param, 0, N));
}

isl::map instantiate(const isl::map &M, const ParamValues &Params) {
  return fixParams(M, Params);
}

isl::set instantiate(const isl::set &S, const ParamValues &Params) {
  return fixParams(take(S.ctx(), isl_map_from_range(S.copy())), Params)
      .range();
}

bool satisfies(const isl::set &Context, const ParamValues &Params) {
  return !instantiate(Context, Params).is_empty();
}

/// Projects out the dimensions of type \p T of \p M that are not in
/// \p Keep and moves those in \p Bound (a subset of Keep) to the
/// parameters, each named \p Names[p] after its original position p.
static isl::map bindDims(isl::map M, isl_dim_type T,
                         const std::vector<std::string> &Names,
                         const std::vector<unsigned> &Bound,
                         const std::vector<unsigned> &Keep) {
  auto Has = [](const std::vector<unsigned> &V, unsigned X) {
    return std::find(V.begin(), V.end(), X) != V.end();
  };
  isl_ctx *Ctx = M.ctx().get();
  int N = checkSize(Ctx, isl_map_dim(M.get(), T));
  for (int P = N - 1; P >= 0; --P)
    if (!Has(Keep, P) && !Has(Bound, P))
      M = take(Ctx, isl_map_project_out(M.release(), T, P, 1));
  unsigned Pos = 0;
  for (int P = 0; P < N; ++P) {
    if (!Has(Keep, P) && !Has(Bound, P))
      continue;
    isl::id Id = take(Ctx, isl_id_alloc(Ctx, Names.at(P).c_str(), nullptr));
    M = take(Ctx, isl_map_set_dim_id(M.release(), T, Pos, Id.release()));
    if (!Has(Bound, P)) {
      ++Pos;
      continue;
    }
    unsigned NP = checkSize(Ctx, isl_map_dim(M.get(), isl_dim_param));
    M = take(Ctx, isl_map_move_dims(M.release(), isl_dim_param, NP, T, Pos, 1));
  }
  return M;
}

isl::set sliceSet(const isl::set &S, const std::vector<std::string> &Names,
                  const std::vector<unsigned> &Bound,
                  const std::vector<unsigned> &Free) {
  isl::map M = take(S.ctx(), isl_map_from_range(S.copy()));
  return bindDims(M, isl_dim_out, Names, Bound, Free).range();
}

isl::map inputsToParams(const isl::map &M,
                        const std::vector<std::string> &Names,
                        const std::vector<unsigned> &Keep) {
  return bindDims(M, isl_dim_in, Names, Keep, Keep);
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
