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

void rethrowQuotaError(isl_ctx *Ctx) {
  if (isl_ctx_last_error(Ctx) == isl_error_quota)
    isl::exception::throw_last_error(isl::ctx(Ctx));
}

std::optional<isl::set> parseSet(isl::ctx Ctx, const std::string &Text,
                                 std::string &Error) {
  isl_set *S = isl_set_read_from_str(Ctx.get(), Text.c_str());
  if (!S) {
    rethrowQuotaError(Ctx.get());
    const char *Msg = isl_ctx_last_error_msg(Ctx.get());
    Error = Msg ? Msg : "malformed set";
    isl_ctx_reset_error(Ctx.get());
    // isl's reader reports "syntax error" even when the quota ran out under
    // it; text that parses without the quota was not at fault.
    unsigned long Max = isl_ctx_get_max_operations(Ctx.get());
    if (Max != 0) {
      isl_ctx_set_max_operations(Ctx.get(), 0);
      isl_set *Retry = isl_set_read_from_str(Ctx.get(), Text.c_str());
      isl_ctx_set_max_operations(Ctx.get(), Max);
      isl_ctx_reset_error(Ctx.get());
      if (Retry) {
        isl_set_free(Retry);
        isl::exception::throw_error(isl_error_quota,
                                    "maximal number of operations exceeded",
                                    __FILE__, __LINE__);
      }
    }
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
    rethrowQuotaError(Ctx);
    isl_ctx_reset_error(Ctx);
    return S.sample_point();
  }
  // Fix exact values: a coordinate need not fit a long.
  isl_set *Fixed = S.copy();
  for (unsigned I = 0; I < NP; ++I)
    Fixed = isl_set_fix_val(Fixed, isl_dim_param, I,
                            isl_point_get_coordinate_val(Min, isl_dim_set, I));
  for (unsigned I = 0; I < ND; ++I)
    Fixed =
        isl_set_fix_val(Fixed, isl_dim_set, I,
                        isl_point_get_coordinate_val(Min, isl_dim_set, NP + I));
  isl_point_free(Min);
  return isl::manage(isl_set_sample_point(Fixed));
}

bool isDimBounded(const isl::set &S, unsigned Dim) {
  // Project onto the dimension and ask whether its recession cone is
  // trivial with the parameters held constant, that is, whether it is
  // bounded for every parameter value. (isl_set_dim_{min,max} would answer
  // too, but their parametric solver can crash inside isl 0.25 when the
  // operation quota runs out.)
  isl_ctx *Ctx = S.ctx().get();
  unsigned N = isl_set_dim(S.get(), isl_dim_set);
  isl_set *P = isl_set_project_out(S.copy(), isl_dim_set, Dim + 1, N - Dim - 1);
  P = isl_set_project_out(P, isl_dim_set, 0, Dim);
  isl_bool Bounded = isl_set_is_bounded(P);
  isl_set_free(P);
  if (Bounded == isl_bool_error) {
    rethrowQuotaError(Ctx);
    isl::exception::throw_last_error(isl::ctx(Ctx));
  }
  return Bounded == isl_bool_true;
}

} // namespace loopy
