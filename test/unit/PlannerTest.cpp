//===- PlannerTest.cpp - The planner's enumeration and cost model ---------===//
//
// The schedule space of small kernels, by count and by name; the options
// that prune it; and a ranking the static cost model must keep: threads
// reading along an array's contiguous dimension rank above threads reading
// across it.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "loopy/Planner/Planner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace loopy {
namespace {

const char *Copy = R"(
kernel copy(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i];
})";

const char *Copy2 = R"(
kernel copy2(n, m: index; a: in f32[n, m], b: out f32[n, m]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  b[i, j] = a[i, j];
})";

std::vector<std::string> names(const std::vector<Variant> &Vs) {
  std::vector<std::string> N;
  for (const Variant &V : Vs)
    N.push_back(V.Name);
  return N;
}

bool has(const std::vector<std::string> &Names, const std::string &N) {
  return std::find(Names.begin(), Names.end(), N) != Names.end();
}

TEST(Planner, EnumeratesTheCopySpace) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  // Threads 32 or 64 on x, 1-8 outputs per thread (adjacent or strided),
  // the read staged or not.
  EXPECT_EQ(Vs.size(), 28u) << Error;
  std::vector<std::string> N = names(Vs);
  EXPECT_EQ(N.front(), "i:g.x,t.x*32");
  EXPECT_TRUE(has(N, "i:g.x,t.x*64,ilp8s"));
  EXPECT_TRUE(has(N, "i:g.x,t.x*32,ilp2 prefetch:x"));
  EXPECT_TRUE(has(N, "i:g.x,t.x*64,ilp4s prefetch:x"));
  // Names are unique.
  std::sort(N.begin(), N.end());
  EXPECT_EQ(std::unique(N.begin(), N.end()), N.end());
}

TEST(Planner, MinThreadsPrunes) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  PlannerOptions O;
  O.MinThreads = 64;
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, O, Error);
  EXPECT_EQ(Vs.size(), 14u) << Error;
  for (const Variant &V : Vs) {
    EXPECT_EQ(V.Name.find("t.x*32"), std::string::npos) << V.Name;
    EXPECT_GE(V.Stats[0].Threads, 64);
  }
}

TEST(Planner, MaxSharedPrunes) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  PlannerOptions O;
  O.MaxSharedBytes = 600;
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, O, Error);
  ASSERT_FALSE(Vs.empty()) << Error;
  for (const Variant &V : Vs)
    EXPECT_LE(V.Stats[0].SharedBytes, 600) << V.Name;
  EXPECT_FALSE(has(names(Vs), "i:g.x,t.x*64,ilp8s prefetch:x"));
}

TEST(Planner, FindsAVariantByName) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  auto V = findVariant(*K, Vs, "i:g.x,t.x*64,ilp4s prefetch:x", Error);
  ASSERT_TRUE(V) << Error;
  EXPECT_EQ(V->Stats[0].Threads, 64);
  EXPECT_EQ(V->Stats[0].RegisterOutputs, 4);
  // The box of a block's 256 elements, with one element of padding.
  EXPECT_EQ(V->Stats[0].SharedBytes, 257 * 4);
  EXPECT_EQ(V->Stats[0].Blocks, "((n + 255) / 256, 1, 1)");
  EXPECT_FALSE(findVariant(*K, Vs, "i:q.x", Error));
  EXPECT_FALSE(findVariant(*K, Vs, "28", Error)); // past the last index
}

TEST(CostModel, CoalescedRanksAboveUncoalesced) {
  // b[i, j] = a[i, j], row-major: j is contiguous. Threads of a warp along
  // j read and write consecutive addresses; along i, a row apart.
  auto K = interptest::buildKernel(Copy2);
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  auto Along = findVariant(*K, Vs, "i:g.y,t.y*8 j:g.x,t.x*32", Error);
  auto Across = findVariant(*K, Vs, "i:g.x,t.x*32 j:g.y,t.y*8", Error);
  ASSERT_TRUE(Along && Across) << Error;
  EXPECT_LT(Along->Cost, Across->Cost);
  // The best variant puts the contiguous index on x.
  ASSERT_FALSE(Vs.empty());
  EXPECT_NE(Vs.front().Name.find("j:g.x"), std::string::npos)
      << Vs.front().Name;
}

} // namespace
} // namespace loopy
