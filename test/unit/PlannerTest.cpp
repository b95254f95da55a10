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
#include <map>

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

// No variant is estimated faster than its compulsory traffic: each
// element of x read and each of y written once, at the model's 3 TB/s
// (CostModel.cpp). A read staged in shared memory inside a sequential loop
// over an output index is loaded again in each of its iterations.
TEST(CostModel, NoEstimateBelowTheCompulsoryTraffic) {
  auto K = interptest::buildKernel(R"(
kernel copy4(x: in f32[128, 128, 128, 128], y: out f32[128, 128, 128, 128]) {
  domain { [a, b, c, d] : 0 <= a, b, c, d < 128 }
  y[a, b, c, d] = 2 * x[a, b, c, d];
})");
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  ASSERT_FALSE(Vs.empty()) << Error;
  const double Compulsory = 2 * 128.0 * 128 * 128 * 128 * 4 / 3.0e12;
  size_t Staged = 0;
  for (const Variant &V : Vs) {
    EXPECT_GE(V.Cost, Compulsory * (1 - 1e-9)) << V.Name;
    Staged += V.Name.find(":seq") != std::string::npos &&
              V.Name.find("prefetch:x") != std::string::npos;
  }
  // The space holds the case: staged reads under a sequential output loop.
  EXPECT_GT(Staged, 0u);
}

const char *Outer = R"(
kernel outer(na, nb, nc: index; x: in f32[na, nb], y: in f32[nc],
             z: out f32[na, nb, nc]) {
  domain { [a, b, c] : 0 <= a < na and 0 <= b < nb and 0 <= c < nc }
  z[a, b, c] = x[a, b] * y[c];
})";

// --plan-limit bounds the schedules isl analyses for the whole kernel; a
// larger space is sampled by the schedules alone, the same on every run,
// and every variant of the sample is one of the whole space's, with the
// same figures.
TEST(Planner, PlanLimitSamplesTheSpace) {
  auto K = interptest::buildKernel(Outer,
                                   {{"na", 128}, {"nb", 128}, {"nc", 128}});
  ASSERT_TRUE(K);
  PlannerOptions All;
  All.MaxAnalyses = 0;
  All.IslMaxOperations = 0;
  PlannerOptions Few;
  Few.MaxAnalyses = 2100;

  std::string Error;
  SpaceSize Whole, Part, Again;
  std::vector<Variant> Every = planKernel(*K, All, Error, &Whole);
  ASSERT_GT(Whole.Shapes, 4000u) << Whole.Shapes;
  EXPECT_EQ(Whole.Analysed, Whole.Shapes);
  std::vector<Variant> Sample = planKernel(*K, Few, Error, &Part);
  ASSERT_FALSE(Sample.empty()) << Error;
  EXPECT_EQ(Part.Shapes, Whole.Shapes);
  EXPECT_EQ(Part.Analysed, 2100u);
  EXPECT_LT(Sample.size(), Every.size() / 2);
  EXPECT_EQ(names(planKernel(*K, Few, Error, &Again)), names(Sample));
  EXPECT_EQ(Again.Analysed, Part.Analysed);
  std::map<std::string, double> Cost;
  for (const Variant &V : Every)
    Cost[V.Name] = V.Cost;
  for (const Variant &V : Sample) {
    ASSERT_TRUE(Cost.count(V.Name)) << V.Name;
    EXPECT_EQ(Cost[V.Name], V.Cost) << V.Name;
  }
  // The merged view (a and b travel together) holds the same work in
  // longer loops: it is analysed whole while it fits in three quarters of
  // the bound, and the sample keeps all of its variants.
  size_t Merged = 0;
  for (const Variant &V : Sample)
    Merged += !V.Merge.empty();
  size_t MergedAll = 0;
  for (const Variant &V : Every)
    MergedAll += !V.Merge.empty();
  ASSERT_GT(MergedAll, 0u);
  EXPECT_EQ(Merged, MergedAll);
}

// The plan limit also bounds isl's work: where a domain's holes and
// pieces make each analysis cost several times what a box's does, fewer
// of them are analysed, and always the same ones.
TEST(Planner, PlanLimitBoundsIslWork) {
  const char *Holes = R"(
kernel holes(n: index; x: in f32[n, n], y: out f32[n, n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n and
                    i != 3 and j != 5 and i != j + 2 and i + j != 7 and
                    (j < 5 or j > 9) }
  y[i, j] = x[i, j] * 2;
})";
  auto K = interptest::buildKernel(Holes);
  ASSERT_TRUE(K);
  std::string Error;
  PlannerOptions Opts;
  SpaceSize Size, Again;
  std::vector<Variant> Vs = planKernel(*K, Opts, Error, &Size);
  ASSERT_FALSE(Vs.empty()) << Error;
  // 784 shapes, well within 6000 analyses, but not within their work.
  EXPECT_LT(Size.Analysed, Size.Shapes / 2);
  EXPECT_EQ(names(planKernel(*K, Opts, Error, &Again)), names(Vs));
  EXPECT_EQ(Again.Analysed, Size.Analysed);
  // Without the plan limit every shape is analysed.
  Opts.MaxAnalyses = 0;
  Opts.IslMaxOperations = 0;
  SpaceSize Whole;
  planKernel(*K, Opts, Error, &Whole);
  EXPECT_EQ(Whole.Analysed, Whole.Shapes);
  EXPECT_EQ(Whole.Shapes, Size.Shapes);
}

} // namespace
} // namespace loopy
