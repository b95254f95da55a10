//===- IndexWidth.cpp - Whether index arithmetic fits 32 bits -------------===//
#include "IndexWidth.h"

#include <isl/aff.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cmath>
#include <optional>

namespace loopy {

bool indexFitsIn32Bits(const Kernel &K, const Statement &S) {
  // Bounds are only known where every parameter is fixed. Guards and tile
  // origins overshoot an index by at most a block's tile, so a margin of
  // 2x below 2^31 leaves room for them.
  for (const std::string &P : K.ParamNames)
    if (!K.Fixed.count(P))
      return false;
  const long Limit = 1L << 30;
  auto Small = [&](isl_val *X) {
    isl::val V = isl::manage(X);
    return !V.is_null() && V.is_int() && std::labs(V.get_num_si()) < Limit;
  };
  for (auto &[Name, Value] : K.Fixed)
    if (std::labs(Value) >= Limit)
      return false;
  // Every index of the statement.
  isl::set Ctx =
      isl::manage(isl_set_params(isl_set_from_params(K.Context.copy())));
  isl::set D = S.Domain.intersect_params(Ctx);
  for (unsigned I = 0; I < S.Indices.size(); ++I)
    if (!Small(isl_set_dim_max_val(D.copy(), I)) ||
        !Small(isl_set_dim_min_val(D.copy(), I)))
      return false;
  // Every array's largest element offset: sum of (extent - 1) * stride.
  auto Value = [&](const isl::aff &A) -> std::optional<long> {
    isl_pw_aff *P = isl_pw_aff_from_aff(
        isl_aff_align_params(A.copy(), isl_set_get_space(Ctx.get())));
    P = isl_pw_aff_intersect_params(P, Ctx.copy());
    isl::val V = isl::manage(isl_pw_aff_max_val(P));
    std::optional<long> R;
    if (!V.is_null() && V.is_int())
      R = V.get_num_si();
    return R;
  };
  for (const Argument &A : K.Args) {
    if (!A.isArray())
      continue;
    std::vector<long> Ext;
    for (const isl::aff &X : A.Shape) {
      auto V = Value(X);
      if (!V || *V < 0 || *V >= Limit)
        return false;
      Ext.push_back(*V);
    }
    long Offset = 0, Stride = 1;
    for (unsigned D = 0; D < A.rank(); ++D) {
      unsigned Dim = A.Order == Layout::RowMajor ? A.rank() - 1 - D : D;
      long St = Stride;
      if (A.Order == Layout::Strided) {
        auto V = Value(A.Strides[Dim]);
        if (!V || std::labs(*V) >= Limit)
          return false;
        St = std::labs(*V);
      }
      Offset += std::max(Ext[Dim] - 1, 0L) * St;
      if (Offset >= Limit)
        return false;
      Stride = St * std::max(Ext[Dim], 1L);
      if (A.Order != Layout::Strided && Stride >= Limit)
        return false;
    }
  }
  return true;
}

} // namespace loopy
