//===- TunedCode.cpp - A tuned program's launches, stored -----------------===//
//
// The text is a JSON object {"format": 1, "kernels": [...]}, one object per
// kernel in launch order. A reader refuses another format number: the
// row's code then counts as damaged, and the kernel is tuned again.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/TunedCode.h"

#include "loopy/Compile/LaunchArgs.h"

#include <nlohmann/json.hpp>

namespace loopy {

using device::DeviceKernel;
using device::KernelParam;
using Json = nlohmann::ordered_json;

namespace {

constexpr int LaunchFormat = 1;

const char *kindName(KernelParam::Kind K) {
  switch (K) {
  case KernelParam::Kind::Index:
    return "index";
  case KernelParam::Kind::Scalar:
    return "scalar";
  case KernelParam::Kind::InArray:
    return "in";
  case KernelParam::Kind::OutArray:
    return "out";
  }
  return "?";
}

/// Thrown inside decodeLaunches for a value of the right JSON type that
/// means nothing.
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

KernelParam::Kind parseKind(const std::string &S) {
  for (KernelParam::Kind K :
       {KernelParam::Kind::Index, KernelParam::Kind::Scalar,
        KernelParam::Kind::InArray, KernelParam::Kind::OutArray})
    if (S == kindName(K))
      return K;
  throw Malformed("unknown parameter kind '" + S + "'");
}

} // namespace

Expected<std::string> encodeLaunches(isl::ctx Ctx,
                                     const device::DeviceProgram &P,
                                     const ParamValues &Params) {
  Json Kernels = Json::array();
  for (const DeviceKernel &DK : P.Kernels) {
    auto Grid = launchBlocks(Ctx, DK, Params);
    if (!Grid)
      return Grid.takeFailure();
    Json Ps = Json::array();
    for (const KernelParam &KP : DK.Params)
      Ps.push_back({KP.Name, kindName(KP.K), dtypeName(KP.Type)});
    Json Aligned = Json::array();
    for (const auto &[Name, Bytes] : DK.Aligned)
      Aligned.push_back({Name, Bytes});
    Kernels.push_back(
        {{"function", DK.Name},
         {"params", std::move(Ps)},
         {"block", {DK.BlockDim[0], DK.BlockDim[1], DK.BlockDim[2]}},
         {"grid", {(*Grid)[0], (*Grid)[1], (*Grid)[2]}},
         {"grid_isl", {DK.GridIsl[0], DK.GridIsl[1], DK.GridIsl[2]}},
         {"grid_c", {DK.GridC[0], DK.GridC[1], DK.GridC[2]}},
         {"dynamic_shared", DK.DynamicShared},
         {"aligned", std::move(Aligned)}});
  }
  return Json{{"format", LaunchFormat}, {"kernels", std::move(Kernels)}}
      .dump();
}

Expected<std::vector<TunedLaunch>> decodeLaunches(const std::string &Text) {
  std::vector<TunedLaunch> Out;
  try {
    Json J = Json::parse(Text);
    if (J.at("format").get<int>() != LaunchFormat)
      throw Malformed("format " + J.at("format").dump() + ", not " +
                      std::to_string(LaunchFormat));
    for (const Json &K : J.at("kernels")) {
      TunedLaunch L;
      DeviceKernel &DK = L.Kernel;
      DK.Name = K.at("function").get<std::string>();
      if (DK.Name.empty())
        throw Malformed("a kernel without a function name");
      for (const Json &P : K.at("params")) {
        std::string Type = P.at(2).get<std::string>();
        auto T = parseStorableDType(Type);
        if (!T)
          throw Malformed("unknown type '" + Type + "'");
        KernelParam KP;
        KP.K = parseKind(P.at(1).get<std::string>());
        KP.Name = P.at(0).get<std::string>();
        KP.Type = *T;
        DK.Params.push_back(std::move(KP));
      }
      for (int A = 0; A < 3; ++A) {
        DK.BlockDim[A] = K.at("block").at(A).get<long>();
        L.Grid[A] = K.at("grid").at(A).get<long>();
        DK.GridIsl[A] = K.at("grid_isl").at(A).get<std::string>();
        DK.GridC[A] = K.at("grid_c").at(A).get<std::string>();
        if (DK.BlockDim[A] < 1 || L.Grid[A] < 0)
          throw Malformed("a block or grid out of range");
      }
      DK.DynamicShared = K.at("dynamic_shared").get<long>();
      if (DK.DynamicShared < 0)
        throw Malformed("negative dynamic shared memory");
      for (const Json &A : K.at("aligned"))
        DK.Aligned.emplace_back(A.at(0).get<std::string>(),
                                A.at(1).get<long>());
      Out.push_back(std::move(L));
    }
  } catch (nlohmann::json::exception &E) {
    return Failure::user(std::string("malformed launches: ") + E.what());
  } catch (Malformed &E) {
    return Failure::user(std::string("malformed launches: ") + E.what());
  }
  if (Out.empty())
    return Failure::user("malformed launches: no kernel");
  return Out;
}

} // namespace loopy
