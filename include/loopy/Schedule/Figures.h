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

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace loopy {

/// The shared memory a CUDA kernel may declare statically; more must be
/// allocated at launch, with the function opted in.
constexpr long StaticSharedLimit = 48 * 1024;
/// The bytes a shared buffer takes in the dynamic array: its own, rounded
/// up to the 16 bytes each buffer is aligned to.
constexpr long dynamicSharedSlot(long Bytes) { return (Bytes + 15) / 16 * 16; }

/// The most blocks a launch may have along x, y and z: CUDA's limits,
/// which the planner keeps where sizes are fixed and every launcher checks
/// at the sizes it runs.
constexpr long MaxGridBlocks[3] = {2147483647L, 65535, 65535};

/// What lowering would need, without generating code: shared memory
/// bytes (from the footprints' boxes) and the grid as C expressions.
struct LoweringFigures {
  long SharedBytes = 0;
  std::string Grid[3];
  /// Blocks along x, y and z, from isl: the number where it is the same
  /// for every parameter value of the kernel's context (fixed sizes), else
  /// -1. Where no value bounds it, BlocksMax is -1 too.
  long Blocks[3] = {-1, -1, -1};
  /// The most blocks along each axis over the context (-1: unbounded).
  long BlocksMax[3] = {-1, -1, -1};
  /// Per prefetched read: elements of its box.
  std::vector<long> StageElements;
  /// The statement's domain has no point: it does nothing, and its
  /// kernel is never launched.
  bool Empty = false;
};

/// Whether statement \p S of \p K has no point for any parameter value
/// of the kernel's context: such a statement does nothing.
bool statementIsEmpty(const Kernel &K, const Statement &S);

/// What analyzeStatement keeps for schedules of one statement that differ
/// only in the reads they stage (the planner tries every subset): the
/// mapping, bounded, and the grid's figures, computed once for them all.
class FiguresMemo {
public:
  FiguresMemo();
  ~FiguresMemo();
  FiguresMemo(const FiguresMemo &) = delete;
  FiguresMemo &operator=(const FiguresMemo &) = delete;

  struct Entry;

private:
  friend Expected<LoweringFigures>
  analyzeStatement(const Kernel &K, const Statement &S, const Schedule &Sch,
                   LoweringCache *Cache, FiguresMemo *Memo);
  std::map<std::string, std::unique_ptr<Entry>> Entries;
};

/// The figures of \p S of \p K under \p Sch; fails where the schedule
/// cannot be realised (the same failures as lowerStatement's).
/// \p Cache, where given, keeps what isl computed for later calls and
/// lowerings in the same isl context; \p Memo, where given, the mappings
/// of the schedules analysed so far (of \p S alone, in the same context).
Expected<LoweringFigures> analyzeStatement(const Kernel &K, const Statement &S,
                                           const Schedule &Sch,
                                           LoweringCache *Cache = nullptr,
                                           FiguresMemo *Memo = nullptr);

} // namespace loopy

#endif
