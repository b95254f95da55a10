//===- Launch.cpp - Launch dimensions of a lowered kernel -----------------===//
#include "loopy/CodeGen/Launch.h"
#include "loopy/Support/Half.h"

#include <isl/aff.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cstring>

#include <stdexcept>

namespace loopy {

std::vector<unsigned char> scalarArgBytes(DType T, double Float, int64_t Int) {
  auto Bytes = [](auto V) {
    std::vector<unsigned char> B(sizeof V);
    std::memcpy(B.data(), &V, sizeof V);
    return B;
  };
  switch (T) {
  case DType::F32:
    return Bytes(static_cast<float>(Float));
  case DType::F64:
    return Bytes(Float);
  case DType::F16:
    return Bytes(floatToF16(static_cast<float>(Float)));
  case DType::BF16:
    return Bytes(floatToBf16(static_cast<float>(Float)));
  case DType::I32:
    return Bytes(static_cast<int32_t>(Int));
  case DType::I8:
    return Bytes(static_cast<int8_t>(Int));
  case DType::U8:
    return Bytes(static_cast<uint8_t>(Int));
  case DType::I16:
    return Bytes(static_cast<int16_t>(Int));
  case DType::U16:
    return Bytes(static_cast<uint16_t>(Int));
  default:
    return Bytes(Int);
  }
}

static long evaluate(isl::ctx Ctx, const std::string &Text,
                     const std::map<std::string, long> &Params) {
  isl::pw_aff PA =
      isl::manage(isl_pw_aff_read_from_str(Ctx.get(), Text.c_str()));
  if (PA.is_null())
    throw std::invalid_argument("malformed grid " + Text);
  // Restrict to the single point of the parameter values.
  isl::space Sp = isl::manage(isl_space_params(isl_pw_aff_get_space(PA.get())));
  isl::set At = isl::set::universe(Sp);
  for (int P = 0, N = isl_space_dim(Sp.get(), isl_dim_param); P < N; ++P) {
    std::string Name = isl_space_get_dim_name(Sp.get(), isl_dim_param, P);
    auto It = Params.find(Name);
    if (It == Params.end())
      throw std::invalid_argument("the grid needs a value for " + Name);
    // isl_set_fix_si takes an int; sizes may not fit one.
    At = isl::manage(isl_set_fix_val(At.release(), isl_dim_param, P,
                                     isl_val_int_from_si(Ctx.get(), It->second)));
  }
  isl::val V =
      isl::manage(isl_pw_aff_max_val(PA.intersect_params(At).release()));
  long R = 0; // no piece covers the values: nothing to launch
  if (!V.is_null() && V.is_int())
    R = V.get_num_si();
  return R < 0 ? 0 : R;
}

std::array<long, 3> launchGrid(isl::ctx Ctx, const device::DeviceKernel &K,
                               const std::map<std::string, long> &Params) {
  std::array<long, 3> G;
  for (int A = 0; A < 3; ++A)
    G[A] = K.GridIsl[A] == "1" ? 1 : evaluate(Ctx, K.GridIsl[A], Params);
  return G;
}

} // namespace loopy
