//===- LaunchArgs.h - The arguments of a device kernel's launch -*- C++ -*-===//
//
// Every launcher -- the GPU worker's (tuner), OpenCL's (--check=opencl) and
// the embedding API's -- binds a lowered kernel's parameters the same way:
// index parameters as 64-bit integers (idx in the generated code), scalars
// through scalarArgBytes, arrays by name to the launcher's buffers.
// bindLaunchArgs does that once; each launcher then turns an array name
// into its own kind of buffer. launchBlocks gives the grid every launcher
// uses, checked against the device's limits.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_COMPILE_LAUNCHARGS_H
#define LOOPY_COMPILE_LAUNCHARGS_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Support/Expected.h"

#include <isl/cpp.h>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace loopy {

/// One argument of a launch, in parameter order: the bytes of a value, or
/// the array of that name.
struct LaunchArg {
  const device::KernelParam *Param = nullptr;
  /// The value's bytes (index parameters and scalars); empty for arrays.
  std::vector<unsigned char> Bytes;
  bool isArray() const {
    return Param->K == device::KernelParam::Kind::InArray ||
           Param->K == device::KernelParam::Kind::OutArray;
  }
};

/// The arguments of \p DK with the index parameters \p Params and the
/// scalars \p Scalars. A user Failure names a parameter or scalar without a
/// value.
Expected<std::vector<LaunchArg>>
bindLaunchArgs(const device::DeviceKernel &DK, const ParamValues &Params,
               const std::map<std::string, HostScalar> &Scalars);

/// Blocks along x, y and z of \p DK at the index parameters \p Params,
/// evaluated by isl from its grid (launchGrid); a zero means the kernel
/// has nothing to do there and is not launched. A user Failure where a
/// parameter the grid needs has no value, or where the grid is past the
/// device's limits (MaxGridBlocks, Schedule/Figures.h) at these sizes, which a launcher must
/// refuse rather than run.
Expected<std::array<long, 3>> launchBlocks(isl::ctx Ctx,
                                           const device::DeviceKernel &DK,
                                           const ParamValues &Params);

} // namespace loopy

#endif
