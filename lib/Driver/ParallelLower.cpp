//===- ParallelLower.cpp - Lowering many variants on every core -----------===//
#include "loopy/Driver/ParallelLower.h"

#include "loopy/CodeGen/Lower.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Support/Isl.h"

#include <algorithm>
#include <atomic>
#include <map>
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

/// Variants that map their outputs to blocks and threads alike share the
/// per-thread loop nests of Init and Write, and with equal reduction tiles
/// that of the body: the grid maps of every statement's schedule.
static std::string tilingKey(const Variant &V) {
  std::string Key;
  for (const Schedule &Sch : V.Schedules) {
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid)
        Key += std::to_string(M.Index) + ":" + std::to_string(int(M.Ax)) +
               "/" + std::to_string(M.Threads) + "/" + std::to_string(M.Ilp) +
               (M.Strided ? "s " : " ");
    Key += "| ";
  }
  return Key;
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
  // A worker's cache serves only its own lowerings: each takes whole
  // groups of variants of one tiling, so that their nests are generated
  // once.
  std::map<std::string, std::vector<size_t>> ByTiling;
  for (size_t I = 0; I < Pick.size(); ++I)
    ByTiling[tilingKey(Vs[Pick[I]])].push_back(I);
  // Groups larger than a share of the work split, so that every worker
  // gets some.
  size_t Most = std::max<size_t>(1, Pick.size() / (4 * Threads));
  std::vector<std::vector<size_t>> Groups;
  for (auto &[Key, Members] : ByTiling)
    for (size_t F = 0; F < Members.size(); F += Most)
      Groups.emplace_back(Members.begin() + F,
                          Members.begin() + std::min(F + Most, Members.size()));
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
    // Variants of one kernel repeat many loop nests and block shapes; the
    // cache holds isl objects of this worker's context and goes before it.
    LoweringCache Cache;
    for (size_t G; (G = Next++) < Groups.size();) {
      for (size_t I : Groups[G]) {
        if (!Failure.empty()) {
          Out[I].Error = Failure;
          continue;
        }
        try {
          auto P = lowerKernel(Kernels[KernelIdx], Vs[Pick[I]].Schedules,
                               &Cache);
          if (P)
            Out[I].Program = std::move(*P);
          else
            Out[I].Error = P.failure().Message;
        } catch (isl::exception &E) {
          Out[I].Error = std::string("isl: ") + E.what();
        }
      }
    }
  };
  runOnWorkers(Threads, Work);
  return Out;
}

} // namespace loopy
