//===- Isl.cpp - Ownership and error handling around isl ------------------===//
#include "loopy/Support/Isl.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

namespace loopy {

IslContext::IslContext() : Ctx(isl_ctx_alloc()) {
  isl_options_set_on_error(Ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() { isl_ctx_free(Ctx); }

IslMaxOperationsGuard::IslMaxOperationsGuard(isl_ctx *Ctx, unsigned long MaxOps)
    : Ctx(Ctx), OldMax(isl_ctx_get_max_operations(Ctx)) {
  isl_ctx_reset_operations(Ctx);
  isl_ctx_set_max_operations(Ctx, MaxOps);
}

IslMaxOperationsGuard::~IslMaxOperationsGuard() {
  isl_ctx_set_max_operations(Ctx, OldMax);
  isl_ctx_reset_operations(Ctx);
  isl_ctx_reset_error(Ctx);
}

bool IslMaxOperationsGuard::hasQuotaExceeded() const {
  return isl_ctx_last_error(Ctx) == isl_error_quota;
}

std::optional<isl::set> parseSet(isl::ctx Ctx, const std::string &Text,
                                 std::string &Error) {
  isl_set *S = isl_set_read_from_str(Ctx.get(), Text.c_str());
  if (!S) {
    const char *Msg = isl_ctx_last_error_msg(Ctx.get());
    Error = Msg ? Msg : "malformed set";
    isl_ctx_reset_error(Ctx.get());
    return std::nullopt;
  }
  return isl::manage(S);
}

long coordinate(const isl::point &P, isl_dim_type T, unsigned Pos) {
  isl_val *V = isl_point_get_coordinate_val(P.get(), T, Pos);
  long R = isl_val_get_num_si(V);
  isl_val_free(V);
  return R;
}

std::vector<std::string> setDimNames(const isl::set &S) {
  std::vector<std::string> Names;
  unsigned N = isl_set_dim(S.get(), isl_dim_set);
  for (unsigned I = 0; I < N; ++I) {
    const char *Name = isl_set_get_dim_name(S.get(), isl_dim_set, I);
    Names.push_back(Name ? Name : "d" + std::to_string(I));
  }
  return Names;
}

std::vector<long> coordinates(const isl::point &P, isl_dim_type T,
                              unsigned From, unsigned N) {
  std::vector<long> V;
  for (unsigned I = 0; I < N; ++I)
    V.push_back(coordinate(P, T, From + I));
  return V;
}

std::string describeParams(const isl::set &S, const isl::point &P) {
  std::vector<std::string> Names;
  unsigned N = isl_set_dim(S.get(), isl_dim_param);
  for (unsigned I = 0; I < N; ++I) {
    const char *Name = isl_set_get_dim_name(S.get(), isl_dim_param, I);
    Names.push_back(Name ? Name : "?");
  }
  return describeValues(Names, coordinates(P, isl_dim_param, 0, N));
}

std::string describeValues(const std::vector<std::string> &Names,
                           const std::vector<long> &Values) {
  std::string Out;
  for (size_t I = 0; I < Names.size() && I < Values.size(); ++I)
    Out += (I ? ", " : "") + Names[I] + " = " + std::to_string(Values[I]);
  return Out;
}

std::string joinValues(const std::vector<long> &Values) {
  std::string Out;
  for (size_t I = 0; I < Values.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Values[I]);
  return Out;
}

isl::point smallestPoint(const isl::set &S) {
  // Move the parameters into the tuple so that lexmin minimises them too,
  // then fix S to the coordinates found (which keeps S's own space).
  isl_ctx *Ctx = S.ctx().get();
  unsigned NP = isl_set_dim(S.get(), isl_dim_param);
  unsigned ND = isl_set_dim(S.get(), isl_dim_set);
  isl_set *T = isl_set_move_dims(S.copy(), isl_dim_set, 0, isl_dim_param, 0, NP);
  isl_point *Min = isl_set_sample_point(isl_set_lexmin(T));
  if (!Min || isl_point_is_void(Min)) {
    isl_point_free(Min);
    isl_ctx_reset_error(Ctx);
    return S.sample_point();
  }
  isl_set *Fixed = S.copy();
  for (unsigned I = 0; I < NP; ++I)
    Fixed = isl_set_fix_si(Fixed, isl_dim_param, I,
                           coordinate(isl::manage_copy(Min), isl_dim_set, I));
  for (unsigned I = 0; I < ND; ++I)
    Fixed = isl_set_fix_si(Fixed, isl_dim_set, I,
                           coordinate(isl::manage_copy(Min), isl_dim_set, NP + I));
  isl_point_free(Min);
  return isl::manage(isl_set_sample_point(Fixed));
}

bool isDimBounded(const isl::set &S, unsigned Dim) {
  // isl_set_dim_{min,max} fail with "unbounded optimum" when some parameter
  // value leaves the dimension unbounded.
  isl_ctx *Ctx = S.ctx().get();
  for (bool Max : {false, true}) {
    isl_pw_aff *PA = Max ? isl_set_dim_max(S.copy(), Dim)
                         : isl_set_dim_min(S.copy(), Dim);
    if (!PA) {
      isl_ctx_reset_error(Ctx);
      return false;
    }
    isl_pw_aff_free(PA);
  }
  return true;
}

} // namespace loopy
