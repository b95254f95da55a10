//===- ParallelLower.cpp - Lowering many variants on every core -----------===//
#include "loopy/Driver/ParallelLower.h"

#include "loopy/CodeGen/Lower.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Support/Isl.h"

#include <algorithm>
#include <atomic>
#include <sstream>
#include <thread>

namespace loopy {

void runOnWorkers(unsigned Threads, const std::function<void()> &Work) {
  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();
}

std::vector<LoweredVariant> lowerInParallel(const KernelSource &Src,
                                            size_t KernelIdx,
                                            const std::vector<Variant> &Vs,
                                            const std::vector<size_t> &Pick,
                                            unsigned Threads) {
  std::vector<LoweredVariant> Out(Pick.size());
  if (Pick.empty())
    return Out;
  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  // Rebuilding the kernel costs about as much as lowering a few variants.
  Threads = std::min<size_t>(Threads, (Pick.size() + 3) / 4);
  std::atomic<size_t> Next = 0;
  auto Work = [&] {
    IslContext Isl;
    SourceManager SM(Src.Name, Src.Text);
    std::ostringstream Sink; // the text was checked already
    DiagnosticEngine Diags(&SM, Sink);
    std::vector<Kernel> Kernels;
    std::string Failure;
    try {
      ast::Module M = parseModule(SM, Diags);
      Kernels = buildKernels(M, Isl.get(), SM, Diags, Src.Sema);
    } catch (std::exception &E) {
      Failure = E.what();
    }
    if (Failure.empty() && (Diags.hasErrors() || KernelIdx >= Kernels.size()))
      Failure = "the kernel could not be rebuilt: " + Sink.str();
    for (size_t I; (I = Next++) < Pick.size();) {
      if (!Failure.empty()) {
        Out[I].Error = Failure;
        continue;
      }
      try {
        Out[I].Program = lowerKernel(Kernels[KernelIdx],
                                     Vs[Pick[I]].Schedules, Out[I].Error);
      } catch (isl::exception &E) {
        Out[I].Error = std::string("isl: ") + E.what();
      }
    }
  };
  runOnWorkers(Threads, Work);
  return Out;
}

} // namespace loopy
