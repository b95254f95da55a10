//===- ParallelLower.h - Lowering many variants on every core ---*- C++ -*-===//
//
// An isl context belongs to one thread, and a Kernel's sets to its context.
// To lower many variants at once, each worker builds its own copy of the
// kernel from the source text in a context of its own, then lowers its
// share of the variants. Device programs hold no isl objects, so they
// cross back freely.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_PARALLELLOWER_H
#define LOOPY_DRIVER_PARALLELLOWER_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Sema/Sema.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// What a worker needs to rebuild the kernels: the checked source text and
/// the options it was checked with.
struct KernelSource {
  std::string Name;
  std::string Text;
  SemaOptions Sema;
};

struct LoweredVariant {
  std::optional<device::DeviceProgram> Program;
  std::string Error; // why Program is empty
};

/// Runs \p Work on \p Threads threads (0: one per core), the calling
/// thread among them, and returns when all have returned. Work takes its
/// items from a shared counter.
void runOnWorkers(unsigned Threads, const std::function<void()> &Work);

/// Lowers the variants \p Vs[Pick[I]] of kernel number \p KernelIdx of
/// \p Src (in the order buildKernels returns them) on up to \p Threads
/// threads (0: one per core). Result I belongs to Pick[I].
std::vector<LoweredVariant> lowerInParallel(const KernelSource &Src,
                                            size_t KernelIdx,
                                            const std::vector<Variant> &Vs,
                                            const std::vector<size_t> &Pick,
                                            unsigned Threads = 0);

} // namespace loopy

#endif
