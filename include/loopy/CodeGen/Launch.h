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
#include <vector>

namespace loopy {

/// Blocks along x, y and z for \p K at the parameter values \p Params
/// (every parameter the grid involves must have one; throws
/// std::invalid_argument naming a missing one). A zero means the kernel
/// has nothing to do at these values and is not launched.
/// The bytes of a scalar argument of type \p T as the generated kernels
/// declare it (float, double, int32_t, else int64_t): \p Float converted
/// for the float types, \p Int for the others. Every launcher (CUDA,
/// OpenCL, the embedding API) passes scalars through this one conversion.
std::vector<unsigned char> scalarArgBytes(DType T, double Float, int64_t Int);

std::array<long, 3> launchGrid(isl::ctx Ctx, const device::DeviceKernel &K,
                               const std::map<std::string, long> &Params);

} // namespace loopy

#endif
