//===- Isl.cpp - Ownership and error handling around isl ------------------===//
#include "loopy/Support/Isl.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/printer.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cstdlib>
#include <memory>
#include <new>

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
  if (isl_ctx_last_error(Ctx) == isl_error_alloc)
    throw std::bad_alloc();
  if (isl_ctx_last_error(Ctx) == isl_error_quota)
    throwLastError(Ctx);
}

std::string islFailureText(isl_ctx *Ctx, const isl::exception &E) {
  if (dynamic_cast<const isl::exception_alloc *>(&E) ||
      (Ctx && isl_ctx_last_error(Ctx) == isl_error_alloc))
    throw std::bad_alloc();
  return std::string("isl: ") + E.what();
}

void throwLastError(isl_ctx *Ctx) {
  if (isl_ctx_last_error(Ctx) == isl_error_none)
    isl::exception::throw_error(isl_error_unknown,
                                "an isl call failed without an error",
                                __FILE__, __LINE__);
  isl::exception::throw_last_error(isl::ctx(Ctx));
  __builtin_unreachable();
}

unsigned checkSize(isl_ctx *Ctx, isl_size N) {
  if (N < 0)
    throwLastError(Ctx);
  return N;
}

bool checkBool(isl_ctx *Ctx, isl_bool B) {
  if (B == isl_bool_error)
    throwLastError(Ctx);
  return B == isl_bool_true;
}

long toLong(const isl::val &V) {
  return isl_val_get_num_si(V.get());
}

std::string printC(const isl::aff &A) {
  isl_ctx *Ctx = A.ctx().get();
  std::unique_ptr<isl_printer, isl_printer *(*)(isl_printer *)> P(
      isl_printer_to_str(Ctx), isl_printer_free);
  if (!P)
    throwLastError(Ctx);
  // Each call takes the printer and gives it back.
  auto Step = [&](isl_printer *Next) {
    P.release();
    P.reset(Next);
    if (!Next)
      throwLastError(Ctx);
  };
  Step(isl_printer_set_output_format(P.get(), ISL_FORMAT_C));
  Step(isl_printer_print_aff(P.get(), A.get()));
  std::unique_ptr<char, void (*)(void *)> S(isl_printer_get_str(P.get()),
                                            free);
  if (!S)
    throwLastError(Ctx);
  return S.get();
}

std::optional<isl::set> parseSet(isl::ctx Ctx, const std::string &Text,
                                 std::string &Error) {
  isl_set *S = isl_set_read_from_str(Ctx.get(), Text.c_str());
  if (S)
    return isl::manage(S);
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
      isl::manage(Retry); // freed here
      isl::exception::throw_error(isl_error_quota,
                                  "maximal number of operations exceeded",
                                  __FILE__, __LINE__);
    }
  }
  return std::nullopt;
}

long coordinate(const isl::point &P, isl_dim_type T, unsigned Pos) {
  return toLong(
      take(P.ctx(), isl_point_get_coordinate_val(P.get(), T, Pos)));
}

std::vector<std::string> setDimNames(const isl::set &S) {
  std::vector<std::string> Names;
  unsigned N = checkSize(S.ctx().get(), isl_set_dim(S.get(), isl_dim_set));
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
  unsigned N = checkSize(S.ctx().get(), isl_set_dim(S.get(), isl_dim_param));
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
  unsigned NP = checkSize(Ctx, isl_set_dim(S.get(), isl_dim_param));
  unsigned ND = checkSize(Ctx, isl_set_dim(S.get(), isl_dim_set));
  isl::set T = take(
      Ctx, isl_set_move_dims(S.copy(), isl_dim_set, 0, isl_dim_param, 0, NP));
  isl::point Min;
  try {
    Min = T.lexmin().sample_point();
  } catch (isl::exception_quota &) {
    throw;
  } catch (isl::exception &) {
    // Unbounded below ("unbounded optimum"), the set has no lexicographic
    // minimum: any point will do.
    return S.sample_point();
  }
  if (checkBool(Ctx, isl_point_is_void(Min.get())))
    return S.sample_point();
  // Fix exact values: a coordinate need not fit a long.
  isl::set Fixed = S;
  auto Fix = [&](isl_dim_type Type, unsigned Pos, unsigned From) {
    isl::val V =
        take(Ctx, isl_point_get_coordinate_val(Min.get(), isl_dim_set, From));
    Fixed = take(Ctx, isl_set_fix_val(Fixed.release(), Type, Pos, V.release()));
  };
  for (unsigned I = 0; I < NP; ++I)
    Fix(isl_dim_param, I, I);
  for (unsigned I = 0; I < ND; ++I)
    Fix(isl_dim_set, I, NP + I);
  return Fixed.sample_point();
}

bool isDimBounded(const isl::set &S, unsigned Dim) {
  // Project onto the dimension and ask whether its recession cone is
  // trivial with the parameters held constant, that is, whether it is
  // bounded for every parameter value. (isl_set_dim_{min,max} would answer
  // too, but their parametric solver can crash inside isl 0.25 when the
  // operation quota runs out.)
  isl_ctx *Ctx = S.ctx().get();
  unsigned N = checkSize(Ctx, isl_set_dim(S.get(), isl_dim_set));
  isl::set P = take(Ctx, isl_set_project_out(S.copy(), isl_dim_set, Dim + 1,
                                             N - Dim - 1));
  P = take(Ctx, isl_set_project_out(P.release(), isl_dim_set, 0, Dim));
  return checkBool(Ctx, isl_set_is_bounded(P.get()));
}

} // namespace loopy
