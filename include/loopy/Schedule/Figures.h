//===- Figures.h - What a schedule needs, without its code ------*- C++ -*-===//
//
// analyzeStatement runs the steps of lowering that the planner's cost model
// needs -- the thread mapping, the block ids' bounds, the staged reads --
// and produces their figures: the shared memory and the grid. It generates
// no code.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_FIGURES_H
#define LOOPY_SCHEDULE_FIGURES_H

#include "loopy/Schedule/LoweringCache.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Schedule.h"
#include "loopy/Support/Expected.h"

#include <string>
#include <vector>

namespace loopy {

/// The shared memory a CUDA kernel may declare statically; more must be
/// allocated at launch, with the function opted in.
constexpr long StaticSharedLimit = 48 * 1024;
/// The bytes a shared buffer takes in the dynamic array: its own, rounded
/// up to the 16 bytes each buffer is aligned to.
constexpr long dynamicSharedSlot(long Bytes) { return (Bytes + 15) / 16 * 16; }

/// What lowering would need, without generating code: shared memory
/// bytes (from the footprints' boxes) and the grid as C expressions.
struct LoweringFigures {
  long SharedBytes = 0;
  std::string Grid[3];
  /// Per prefetched read: elements of its box.
  std::vector<long> StageElements;
};

/// The figures of \p S of \p K under \p Sch; fails where the schedule
/// cannot be realised (the same failures as lowerStatement's).
/// \p Cache, where given, keeps what isl computed for later calls and
/// lowerings in the same isl context.
Expected<LoweringFigures> analyzeStatement(const Kernel &K, const Statement &S,
                                           const Schedule &Sch,
                                           LoweringCache *Cache = nullptr);

} // namespace loopy

#endif
