//===- Parallel.h - One parallel-for for the whole compiler -----*- C++ -*-===//
//
// Lowering many variants, compiling them with NVRTC and running them on
// PoCL all spread independent items over the cores. parallelFor is the one
// way they do it: the calling thread and Threads - 1 others take items
// from a shared counter until none is left. The number of threads comes
// from loopyc's -j (0: one per core).
//
// A thread that needs state of its own (an isl context, which belongs to
// one thread, and what is cached in it) builds it once with
// parallelForEach's MakeState before taking items.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_COMPILE_PARALLEL_H
#define LOOPY_COMPILE_PARALLEL_H

#include <atomic>
#include <cstddef>
#include <functional>

namespace loopy {

/// \p Requested threads, or one per core for 0; never more than \p Items
/// (and at least one).
unsigned workerCount(unsigned Requested, size_t Items);

/// Runs \p Work on \p Threads threads (the calling thread among them) and
/// returns when all have returned. \p Work must not throw.
void runOnThreads(unsigned Threads, const std::function<void()> &Work);

/// Calls \p Body(I) for every I in [0, \p N) on up to \p Threads threads
/// (0: one per core). \p Body must not throw.
void parallelFor(size_t N, unsigned Threads,
                 const std::function<void(size_t)> &Body);

/// Like parallelFor, with state per thread: each thread makes its own
/// with \p MakeState() before its first item and calls \p Body(State, I).
template <class MakeStateFn, class BodyFn>
void parallelForEach(size_t N, unsigned Threads, MakeStateFn MakeState,
                     BodyFn Body) {
  std::atomic<size_t> Next = 0;
  runOnThreads(workerCount(Threads, N), [&] {
    auto State = MakeState();
    for (size_t I; (I = Next++) < N;)
      Body(*State, I);
  });
}

} // namespace loopy

#endif
