//===- Isl.h - Ownership and error handling around isl ----------*- C++ -*-===//
//
// The isl context that owns every isl object of a compilation, a guard that
// bounds isl's work on hostile inputs, and small helpers that turn isl points
// into readable text for diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_ISL_H
#define LOOPY_SUPPORT_ISL_H

#include <isl/cpp.h>

#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// Owns an isl_ctx. isl errors become isl::exception (isl's C++ bindings, and
/// take() and the checks below after a C call) rather than messages printed
/// on stderr; no isl failure is ignored.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;

  isl::ctx get() const { return isl::ctx(Ctx); }
  isl_ctx *raw() const { return Ctx; }

private:
  isl_ctx *Ctx;
};

/// Bounds the number of isl operations while alive; operations past the
/// quota fail with isl::exception_quota. A quota of 0 means unlimited.
class IslMaxOperationsGuard {
public:
  IslMaxOperationsGuard(isl_ctx *Ctx, unsigned long MaxOps);
  ~IslMaxOperationsGuard();
  IslMaxOperationsGuard(const IslMaxOperationsGuard &) = delete;
  IslMaxOperationsGuard &operator=(const IslMaxOperationsGuard &) = delete;

  /// True if the last isl error on the context, not yet consumed by the C++
  /// bindings, is the quota running out. A quota error that the bindings
  /// turned into isl::exception_quota is found by catching that type.
  bool hasQuotaExceeded() const;

private:
  isl_ctx *Ctx;
  unsigned long OldMax;
};

/// If the last isl error on \p Ctx is the operation quota running out,
/// throws isl::exception_quota, so that code which tolerates other isl
/// failures (and resets the error) never mistakes the quota for an answer;
/// if it is memory running out, std::bad_alloc, which loopyc reports as
/// such rather than as a failure of the variant at hand.
void rethrowQuotaError(isl_ctx *Ctx);

/// What a failure of isl reports: "isl: " and \p E's message. Where memory
/// ran out (\p E is isl's allocation error, or the last error on \p Ctx,
/// which may be null, is) it throws std::bad_alloc instead: loopyc says it
/// ran out of memory rather than blaming the kernel or variant at hand.
std::string islFailureText(isl_ctx *Ctx, const isl::exception &E);

/// Throws the isl::exception of the error isl last raised on \p Ctx (and
/// clears it): isl::exception_quota past the operation quota. Called where an
/// isl C call returned null or an error value.
[[noreturn]] void throwLastError(isl_ctx *Ctx);

/// Takes ownership of \p Ptr, the result of an isl C call on \p Ctx, as the
/// C++ object of its type: the C boundary of isl::manage(f(x.release())),
/// except that a null result throws the error that caused it (the quota
/// included) rather than isl's "NULL input".
template <class T> auto take(isl_ctx *Ctx, T *Ptr) {
  if (!Ptr)
    throwLastError(Ctx);
  return isl::manage(Ptr);
}
template <class T> auto take(isl::ctx Ctx, T *Ptr) {
  return take(Ctx.get(), Ptr);
}

/// \p N, an isl_size from an isl C call on \p Ctx; throws if isl failed.
unsigned checkSize(isl_ctx *Ctx, isl_size N);

/// \p B, an isl_bool from an isl C call on \p Ctx; throws if isl failed.
bool checkBool(isl_ctx *Ctx, isl_bool B);

/// The integer value of \p V (which must fit a long).
long toLong(const isl::val &V);

/// \p A in C syntax, alone: "n + 1".
std::string printC(const isl::aff &A);

/// Parses \p Text as an isl set; on failure returns nullopt and sets
/// \p Error to isl's message. Throws isl::exception_quota past the quota.
std::optional<isl::set> parseSet(isl::ctx Ctx, const std::string &Text,
                                 std::string &Error);

/// The integer value of coordinate \p Pos of type \p T of \p P.
long coordinate(const isl::point &P, isl_dim_type T, unsigned Pos);

/// Values of dimensions [From, From + N) of type \p T of \p P.
std::vector<long> coordinates(const isl::point &P, isl_dim_type T,
                              unsigned From, unsigned N);

/// "n = 4, m = 1": the parameters of \p S at \p P.
std::string describeParams(const isl::set &S, const isl::point &P);

/// "i = 0, j = 1": \p Names paired with \p Values.
std::string describeValues(const std::vector<std::string> &Names,
                           const std::vector<long> &Values);

/// "0, 1": values joined for a subscript list.
std::string joinValues(const std::vector<long> &Values);

/// A point of the non-empty set \p S, lexicographically smallest in its
/// parameters and then its dimensions where that exists, so that witnesses
/// in messages are small; otherwise any point of \p S.
isl::point smallestPoint(const isl::set &S);

/// Dimension names of the set tuple of \p S.
std::vector<std::string> setDimNames(const isl::set &S);

/// Returns true if dimension \p Dim of \p S is bounded in both directions for
/// every parameter value allowed by \p S.
bool isDimBounded(const isl::set &S, unsigned Dim);

} // namespace loopy

#endif
