//===- Lower.h - Kernel IR + Schedule to the device AST ---------*- C++ -*-===//
//
// lowerStatement takes a checked statement and one schedule for it and
// produces the DeviceKernels that run it. It is a straight list of steps,
// each in a file of its own (lib/CodeGen/Lower.cpp lists them): the block
// and thread coordinates become isl parameters; isl computes every
// footprint, loop bound, guard and partial tile of the per-thread code,
// the block-uniform loops (around barriers) and the cooperative
// shared-memory loads.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_LOWER_H
#define LOOPY_CODEGEN_LOWER_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Schedule/LoweringCache.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Schedule.h"
#include "loopy/Support/Expected.h"

#include <vector>

namespace loopy {

/// Lowers statement \p S of \p K under \p Sch to the kernels that run it,
/// in launch order: one, or where the reduction is split across blocks, a
/// kernel that zeroes the outputs and then the one whose blocks add into
/// them. Fails with a user failure where the schedule cannot be realised
/// (such as a footprint of no fixed box size), with an internal one where
/// isl fails; isl running out of its operations quota throws
/// isl::exception_quota, as everywhere.
/// \p Cache, where given, keeps what isl computed for later lowerings in
/// the same isl context.
Expected<std::vector<device::DeviceKernel>>
lowerStatement(const Kernel &K, const Statement &S, const Schedule &Sch,
               LoweringCache *Cache = nullptr);

/// Lowers every statement with its schedule, in order.
Expected<device::DeviceProgram>
lowerKernel(const Kernel &K, const std::vector<Schedule> &Schedules,
            LoweringCache *Cache = nullptr);

} // namespace loopy

#endif
