//===- TunedCode.h - A tuned program's launches, stored ---------*- C++ -*-===//
//
// The tuning database keeps, with each winner, its CUBIN and what launching
// it needs: for each kernel of the program (the zero-init kernel of a split
// reduction included) its function name, parameters in order, block shape,
// grid at the tuned sizes (and as isl and C expressions, for the reader),
// dynamic shared memory and the alignment its vector reads need. Reading a
// tuning back then neither lowers the variant again nor calls NVRTC.
// encodeLaunches writes that as JSON text; decodeLaunches reads it back.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_TUNEDCODE_H
#define LOOPY_TUNER_TUNEDCODE_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Support/Expected.h"

#include <isl/cpp.h>

#include <array>
#include <string>
#include <vector>

namespace loopy {

/// One kernel of a tuned program, as a launcher needs it.
struct TunedLaunch {
  /// The kernel without its body: Name, Params, BlockDim, GridIsl, GridC,
  /// DynamicShared and Aligned are set, which is what bindLaunchArgs and a
  /// launcher read.
  device::DeviceKernel Kernel;
  /// Blocks along x, y and z at the tuned sizes; a zero means the kernel
  /// has nothing to do there and is not launched.
  std::array<long, 3> Grid = {0, 0, 0};
};

/// The launches of \p P at the index parameters \p Params (every one of
/// them), as the text stored with the winner. A user Failure where a grid
/// cannot be evaluated there (launchBlocks).
Expected<std::string> encodeLaunches(isl::ctx Ctx,
                                     const device::DeviceProgram &P,
                                     const ParamValues &Params);

/// The launches \p Text (encodeLaunches) describes; a user Failure saying
/// what is malformed.
Expected<std::vector<TunedLaunch>> decodeLaunches(const std::string &Text);

} // namespace loopy

#endif
