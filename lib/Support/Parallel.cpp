//===- Parallel.cpp - One parallel-for for the whole compiler -------------===//
#include "loopy/Support/Parallel.h"

#include <sys/resource.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <system_error>

namespace loopy {

unsigned workerCount(unsigned Requested, size_t Items) {
  size_t Threads =
      Requested ? Requested : std::max(1u, std::thread::hardware_concurrency());
  // Under a limit on address space (ulimit -v), each thread reserves a
  // stack and a malloc arena of its own (about 72 MiB with glibc on 64-bit
  // machines) before its isl context holds anything: one thread per
  // 128 MiB of the limit, so that many cores do not exhaust it.
  rlimit Limit;
  if (getrlimit(RLIMIT_AS, &Limit) == 0 && Limit.rlim_cur != RLIM_INFINITY)
    Threads = std::min<size_t>(Threads, Limit.rlim_cur / (128u << 20));
  return static_cast<unsigned>(
      std::max<size_t>(1, std::min<size_t>(Threads, Items)));
}

std::vector<std::thread> startThreads(unsigned Count,
                                      const std::function<void()> &Work) {
  std::vector<std::thread> Pool;
  try {
    for (unsigned T = 0; T < Count; ++T)
      Pool.emplace_back(Work);
  } catch (const std::system_error &) {
    // No more threads: those made take all the items between them.
  }
  return Pool;
}

void runOnThreads(unsigned Threads, const std::function<void()> &Work) {
  // An exception (std::bad_alloc, say) leaves its thread's loop; the first
  // is thrown again here once every thread has returned.
  std::mutex M;
  std::exception_ptr First;
  auto Guarded = [&] {
    try {
      Work();
    } catch (...) {
      std::lock_guard<std::mutex> L(M);
      if (!First)
        First = std::current_exception();
    }
  };
  std::vector<std::thread> Pool = startThreads(Threads - 1, Guarded);
  Guarded();
  for (std::thread &T : Pool)
    T.join();
  if (First)
    std::rethrow_exception(First);
}

void parallelFor(size_t N, unsigned Threads,
                 const std::function<void(size_t)> &Body) {
  std::atomic<size_t> Next = 0;
  runOnThreads(workerCount(Threads, N), [&] {
    for (size_t I; (I = Next++) < N;)
      Body(I);
  });
}

} // namespace loopy
