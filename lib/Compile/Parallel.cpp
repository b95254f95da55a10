//===- Parallel.cpp - One parallel-for for the whole compiler -------------===//
#include "loopy/Compile/Parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace loopy {

unsigned workerCount(unsigned Requested, size_t Items) {
  unsigned Threads =
      Requested ? Requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(
      std::max<size_t>(1, std::min<size_t>(Threads, Items)));
}

void runOnThreads(unsigned Threads, const std::function<void()> &Work) {
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();
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
