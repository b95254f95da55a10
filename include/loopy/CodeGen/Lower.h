//===- Lower.h - Kernel IR + Schedule to the device AST ---------*- C++ -*-===//
//
// lowerStatement takes a checked statement and one schedule for it and
// produces a DeviceKernel. The block and thread coordinates become isl
// parameters; isl's AST generator then computes every loop bound, guard
// and partial tile of the per-thread code, the block-uniform loops (around
// barriers) and the cooperative shared-memory loads, whose footprints are
// isl images of the block's iterations under the access relations.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_CODEGEN_LOWER_H
#define LOOPY_CODEGEN_LOWER_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Planner/Schedule.h"

#include <optional>
#include <string>

namespace loopy {

/// Lowers statement \p S of \p K under \p Sch to the kernels that run it,
/// in launch order: one, or where the reduction is split across blocks, a
/// kernel that zeroes the outputs and then the one whose blocks add into
/// them. On failure (a schedule the lowering cannot realise, such as a
/// footprint of no fixed box size) returns nullopt with \p Error saying
/// why.
std::optional<std::vector<device::DeviceKernel>>
lowerStatement(const Kernel &K, const Statement &S, const Schedule &Sch,
               std::string &Error);

/// What lowering would need, without generating code: shared memory
/// bytes (from the footprints' boxes) and the grid as C expressions.
struct LoweringFigures {
  long SharedBytes = 0;
  std::string Grid[3];
  /// Per prefetched read: elements of its box.
  std::vector<long> StageElements;
};
std::optional<LoweringFigures> analyzeStatement(const Kernel &K,
                                                const Statement &S,
                                                const Schedule &Sch,
                                                std::string &Error);

/// Lowers every statement with its schedule, in order.
std::optional<device::DeviceProgram>
lowerKernel(const Kernel &K, const std::vector<Schedule> &Schedules,
            std::string &Error);

/// A fixed-size box that holds a set: Offset (isl text of a multi_aff of
/// the parameters) and Size per dimension.
struct FootprintBox {
  isl::multi_aff Offset;
  std::vector<long> Size;
};

/// The smallest fixed-size box around \p Footprint, or nullopt if its
/// extent depends on the parameters.
std::optional<FootprintBox> fixedBox(const isl::set &Footprint);

} // namespace loopy

#endif
