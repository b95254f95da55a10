//===- LaunchArgs.cpp - The arguments of a device kernel's launch ---------===//
#include "loopy/Compile/LaunchArgs.h"

#include "loopy/CodeGen/Launch.h"
#include "loopy/Support/Diagnostics.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace loopy {

using device::KernelParam;

Expected<std::vector<LaunchArg>>
bindLaunchArgs(const device::DeviceKernel &DK, const ParamValues &Params,
               const std::map<std::string, HostScalar> &Scalars) {
  std::vector<LaunchArg> Args;
  for (const KernelParam &KP : DK.Params) {
    LaunchArg A;
    A.Param = &KP;
    switch (KP.K) {
    case KernelParam::Kind::Index: {
      auto It = Params.find(KP.Name);
      if (It == Params.end())
        return Failure::user("launch of " + quote(DK.Name) +
                             ": no value for index parameter " +
                             quote(KP.Name));
      // idx is a 64-bit integer in the generated code.
      int64_t V = It->second;
      A.Bytes.resize(sizeof V);
      std::memcpy(A.Bytes.data(), &V, sizeof V);
      break;
    }
    case KernelParam::Kind::Scalar: {
      auto It = Scalars.find(KP.Name);
      if (It == Scalars.end())
        return Failure::user("launch of " + quote(DK.Name) +
                             ": no value for scalar " + quote(KP.Name));
      A.Bytes = scalarArgBytes(KP.Type, It->second.Float, It->second.Int);
      break;
    }
    case KernelParam::Kind::InArray:
    case KernelParam::Kind::OutArray:
      break;
    }
    Args.push_back(std::move(A));
  }
  return Args;
}

Expected<std::array<long, 3>> launchBlocks(isl::ctx Ctx,
                                           const device::DeviceKernel &DK,
                                           const ParamValues &Params) {
  std::array<long, 3> Grid;
  try {
    Grid = launchGrid(Ctx, DK, Params);
  } catch (std::invalid_argument &E) {
    return Failure::user("launch of " + quote(DK.Name) + ": " + E.what());
  }
  if (Grid[0] == 0 || Grid[1] == 0 || Grid[2] == 0)
    return Grid;
  static const char *const AxisName[3] = {"x", "y", "z"};
  for (int A = 0; A < 3; ++A)
    if (Grid[A] > MaxGridBlocks[A])
      return Failure::user(
          "launch of " + quote(DK.Name) + ": the grid needs " +
          std::to_string(Grid[A]) + " blocks along " + AxisName[A] +
          ", more than the device's limit of " +
          std::to_string(MaxGridBlocks[A]) +
          "; use smaller sizes or a variant with more outputs per block");
  return Grid;
}

} // namespace loopy
