//===- LoweringCacheTest.cpp - Kept isl results change no lowering --------===//
//
// LoweringCache keeps loop nests and the facts of each block shape for later
// lowerings of the same kernel. Whatever a cache holds, and in whatever
// order the variants fill it, every variant must lower to the same text as
// it does alone: each variant is lowered with a cache of its own, with one
// cache for all in the planner's order, and with one in the reverse order.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "loopy/CodeGen/Lower.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Planner/Planner.h"

#include <gtest/gtest.h>

namespace loopy {
namespace {

/// The CUDA text of every variant of \p K, lowered in the order \p Order,
/// with a fresh cache per variant or one shared by all.
std::vector<std::string> lowerAll(const Kernel &K,
                                  const std::vector<Variant> &Vs,
                                  const std::vector<size_t> &Order,
                                  bool Shared) {
  std::vector<std::string> Out(Vs.size());
  LoweringCache One;
  for (size_t I : Order) {
    LoweringCache Own;
    auto P = lowerVariant(K, Vs[I], Shared ? &One : &Own);
    Out[I] = P ? printProgram(*P, Dialect::CUDA)
               : "failed: " + P.failure().Message;
  }
  return Out;
}

void expectSameText(const Kernel &K, const PlannerOptions &Opts,
                    size_t AtLeast) {
  std::string Error;
  std::vector<Variant> Vs = planKernel(K, Opts, Error);
  ASSERT_GE(Vs.size(), AtLeast) << Error;

  std::vector<size_t> Forward(Vs.size()), Backward(Vs.size());
  for (size_t I = 0; I < Vs.size(); ++I) {
    Forward[I] = I;
    Backward[I] = Vs.size() - 1 - I;
  }
  std::vector<std::string> Alone = lowerAll(K, Vs, Forward, false);
  std::vector<std::string> InOrder = lowerAll(K, Vs, Forward, true);
  std::vector<std::string> Reversed = lowerAll(K, Vs, Backward, true);
  for (size_t I = 0; I < Vs.size(); ++I) {
    EXPECT_EQ(Alone[I].rfind("failed", 0), std::string::npos)
        << Vs[I].Name << ": " << Alone[I];
    EXPECT_EQ(Alone[I], InOrder[I]) << "variant " << I << ": " << Vs[I].Name;
    EXPECT_EQ(Alone[I], Reversed[I]) << "variant " << I << ": " << Vs[I].Name;
  }
}

TEST(LoweringCache, StridedFootprintsSameInAnyOrder) {
  // Two reads of one array at stride 2: the footprints' boxes are where
  // isl's answer followed the order in which variants filled the cache.
  auto K = interptest::buildKernel(R"(
kernel nd(n: index; x: in f32[2 * n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[2 * i + 1] - x[2 * i];
})");
  ASSERT_TRUE(K);
  expectSameText(*K, PlannerOptions(), 56);
}

TEST(LoweringCache, TransposeSameInAnyOrder) {
  auto K = interptest::buildExample("transpose");
  ASSERT_TRUE(K);
  PlannerOptions O;
  O.MinThreads = 256;
  O.MaxThreads = 256;
  O.MaxRegisterOutputs = 4;
  expectSameText(*K, O, 10);
}

/// Matmul's space, narrowed to blocks of 256 threads with a few outputs
/// each and small stages, to keep the test short.
PlannerOptions matmulOptions() {
  PlannerOptions O;
  O.MinThreads = 256;
  O.MaxThreads = 256;
  O.MaxRegisterOutputs = 4;
  O.MaxSharedBytes = 8 * 1024;
  return O;
}

TEST(LoweringCache, MatmulSymbolicSameInAnyOrder) {
  auto K = interptest::buildExample("matmul");
  ASSERT_TRUE(K);
  expectSameText(*K, matmulOptions(), 100);
}

TEST(LoweringCache, MatmulFixedSameInAnyOrder) {
  auto K = interptest::buildExample("matmul", {{"n", 77}, {"m", 45}, {"l", 51}});
  ASSERT_TRUE(K);
  expectSameText(*K, matmulOptions(), 100);
}

} // namespace
} // namespace loopy
