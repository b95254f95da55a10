//===- Parallel.h - One parallel-for for the whole compiler -----*- C++ -*-===//
//
// Planning's analyses, lowering many variants, compiling them with NVRTC
// and running them on PoCL all spread independent items over the cores.
// parallelFor is the one way they do it: the calling thread and
// Threads - 1 others take items from a shared counter until none is left.
// The number of threads comes from loopyc's -j (0: one per core).
//
// A thread that needs state of its own (an isl context, which belongs to
// one thread, and what is cached in it) builds it once with
// parallelForEach's MakeState before taking items.
//
// Where the system refuses a thread (a limit on processes or on address
// space, as under `ulimit -v`), the work goes on with the threads already
// made, the calling thread at least: fewer cores, never an abort.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_PARALLEL_H
#define LOOPY_SUPPORT_PARALLEL_H

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace loopy {

/// \p Requested threads, or one per core for 0; never more than \p Items
/// nor one per 128 MiB of a limit on address space (and at least one).
unsigned workerCount(unsigned Requested, size_t Items);

/// Starts up to \p Count threads running \p Work and returns them: fewer,
/// possibly none, where the system refuses more.
std::vector<std::thread> startThreads(unsigned Count,
                                      const std::function<void()> &Work);

/// Runs \p Work on \p Threads threads (the calling thread among them) and
/// returns when all have returned. Where \p Work throws on any thread, the
/// first exception is thrown again here after all have returned.
void runOnThreads(unsigned Threads, const std::function<void()> &Work);

/// Calls \p Body(I) for every I in [0, \p N) on up to \p Threads threads
/// (0: one per core). An exception of \p Body ends its thread's share and
/// is thrown again here once the others have finished.
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
