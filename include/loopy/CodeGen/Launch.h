//===- Launch.h - Launch dimensions of a lowered kernel ---------*- C++ -*-===//
//
// A DeviceKernel carries its grid as isl piecewise affine functions of the
// index parameters (GridIsl). A launcher, for CUDA or OpenCL, evaluates
// them with isl at the run's parameter values.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_LAUNCH_H
#define LOOPY_CODEGEN_LAUNCH_H

#include "loopy/CodeGen/DeviceAST.h"

#include <isl/cpp.h>

#include <array>
#include <map>
#include <string>

namespace loopy {

/// Blocks along x, y and z for \p K at the parameter values \p Params
/// (every parameter the grid involves must have one; throws
/// std::invalid_argument naming a missing one). A zero means the kernel
/// has nothing to do at these values and is not launched.
std::array<long, 3> launchGrid(isl::ctx Ctx, const device::DeviceKernel &K,
                               const std::map<std::string, long> &Params);

} // namespace loopy

#endif
