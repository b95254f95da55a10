//===- Planner.h - The schedule space and its static ranking ----*- C++ -*-===//
//
// planKernel enumerates the schedules of every statement of a checked
// kernel ("dumb enumeration"), drops those that break the resource
// constraints, and ranks the rest with a static cost model so that the
// first variant is a sensible choice without a GPU. The tuner times them.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_PLANNER_PLANNER_H
#define LOOPY_PLANNER_PLANNER_H

#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Schedule.h"
#include "loopy/Support/Expected.h"

#include <isl/cpp.h>

#include <functional>
#include <string>
#include <vector>

namespace loopy {

struct PlannerOptions {
  long MinThreads = 32;   // per block
  long MaxThreads = 1024; // per block
  long MinBlocks = 1;     // for the given sizes, where they are fixed
  long MaxSharedBytes = 48 * 1024;
  long MaxRegisterOutputs = 64; // outputs held in registers per thread
  /// Offer sums of f32 products on the tensor cores, their operands
  /// rounded to tf32 (Schedule::Tf32). Part of the space: the tuning key
  /// names it.
  bool AllowTf32 = false;
  /// Bound on the schedules that isl analyses in planning one kernel, over
  /// all of its statements and views (0: no bound). Where a space is
  /// larger, a spread of it chosen by the schedules alone is analysed, so
  /// that planning takes bounded time and gives the same variants on every
  /// machine. Part of the space: the tuning key names it.
  long MaxAnalyses = 6000;
  /// Bound on isl's work in analysing one schedule while planning, and in
  /// lowering one variant (0: unlimited); the compile entry applies it
  /// (planVariants, lowerVariant). Not part of the space: the tuning key
  /// omits it.
  unsigned long IslMaxOperations = 0;
};

/// Static figures of one statement's schedule.
struct Figures {
  long Threads = 1;
  long SharedBytes = 0;
  long RegisterOutputs = 1;
  std::string Blocks; // (x, y, z) as C expressions of the parameters
  /// Blocks along x, y, z where the sizes make them constant, else -1.
  long GridBlocks[3] = {-1, -1, -1};
  double Cost = 0;    // estimated seconds at the assumed sizes
  /// The statement has no point: its kernel is never launched.
  bool Empty = false;
};

/// One variant of a kernel: a schedule per statement.
struct Variant {
  /// Empty, or the tag of the merged kernel (MergeIndices.h) whose
  /// statements the schedules map: "merge(a,b) merge(c,d)".
  std::string Merge;
  /// Empty, or the tag of the fused kernel (Fusion.h) whose statements the
  /// schedules map: "fuse(S0,S1,S2)".
  std::string Fuse;
  std::vector<Schedule> Schedules;
  std::vector<Figures> Stats;
  /// The schedule strings, joined by " | ", after the merge or fusion tag
  /// if any.
  std::string Name;
  double Cost = 0;

  /// Some statement's products round their f32 operands to tf32.
  bool tf32() const;
};

/// How much of a kernel's space planning analysed: the distinct schedule
/// shapes isl is asked about (one analysis serves the schedules that split
/// a tile among threads and registers differently), and those it analysed
/// within --plan-limit.
struct SpaceSize {
  size_t Shapes = 0;
  size_t Analysed = 0;
};

/// The threads that planning spreads isl's analyses over. Each partition
/// of a space's analyses runs in a copy of the kernel in an isl context of
/// its own, which \c Rebuild makes (CheckedSource::rebuildKernel), however
/// many threads there are: the variants never depend on \c Count.
struct PlanThreads {
  unsigned Count = 1; // 0: one per core
  std::function<Expected<Kernel>(isl::ctx)> Rebuild;
};

/// Every legal variant of \p K, best first. \p Error is set, and the result
/// empty, if no statement can be scheduled. \p Analysed, where given, says
/// how much of the space was analysed. \p Threads, where given, spreads
/// the analyses over threads; without it they run in \p K's context.
std::vector<Variant> planKernel(const Kernel &K, const PlannerOptions &Opts,
                                std::string &Error,
                                SpaceSize *Analysed = nullptr,
                                const PlanThreads *Threads = nullptr);

/// The figures of \p Sch for \p S, computed with isl (footprints, grid).
/// Returns false with \p Error set if the schedule cannot be realised.
bool computeFigures(const Kernel &K, const Statement &S, const Schedule &Sch,
                    Figures &F, std::string &Error);

/// The variant named \p Name (schedule strings joined by " | ", or an index
/// into \p Variants), parsed for \p K.
std::optional<Variant> findVariant(const Kernel &K,
                                   const std::vector<Variant> &Variants,
                                   const std::string &Name, std::string &Error);

} // namespace loopy

#endif
