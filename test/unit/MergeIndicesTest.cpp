//===- MergeIndicesTest.cpp - Indices that travel together, merged --------===//
//
// Which index pairs merge, which do not and why, and the merged kernel's
// domain, accesses and array shapes.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "loopy/Planner/Planner.h"
#include "loopy/Schedule/MergeIndices.h"

#include <gtest/gtest.h>

#include <sstream>

namespace loopy {
namespace {

const char *Contract4 = R"(
kernel contract4(na, nb, nc, nd, ne, nf: index;
                 x: in f32[na, nb, ne, nf], y: in f32[ne, nf, nc, nd],
                 z: out f32[na, nb, nc, nd]) {
  domain { [a, b, c, d, e, f] : 0 <= a < na and 0 <= b < nb and 0 <= c < nc
                                and 0 <= d < nd and 0 <= e < ne and 0 <= f < nf }
  z[a, b, c, d] = sum((e, f), x[a, b, e, f] * y[e, f, c, d]);
})";

std::map<std::string, long> sizes4(long N) {
  return {{"na", N}, {"nb", N + 1}, {"nc", N + 2},
          {"nd", N + 3}, {"ne", N + 4}, {"nf", N + 5}};
}

std::string str(const isl::map &M) {
  std::ostringstream OS;
  OS << M;
  return OS.str();
}

TEST(MergeIndices, AContractionBecomesAMatrixProduct) {
  auto K = interptest::buildKernel(Contract4, sizes4(4));
  ASSERT_TRUE(K);
  std::optional<MergedKernel> M = mergeIndices(*K);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Tag, "merge(a,b) merge(c,d) merge(e,f)");
  const Kernel &MK = M->K;
  ASSERT_EQ(MK.IndexNames.size(), 3u);
  EXPECT_EQ(MK.IndexNames[0], "a_b");
  EXPECT_EQ(MK.IndexNames[1], "c_d");
  EXPECT_EQ(MK.IndexNames[2], "e_f");
  // x[a, b, e, f] is x[5 * a + b, 9 * e + f] of a 20 x 72 array.
  const Statement &S = MK.Stmts[0];
  EXPECT_EQ(S.OutputIndices, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(S.ReductionIndices, (std::vector<unsigned>{2}));
  EXPECT_EQ(MK.Args[K->findArg("x") - K->Args.data()].rank(), 2u);
  EXPECT_NE(str(S.Reads[0].Relation).find("S0[a_b, c_d, e_f] -> x[a_b, e_f]"), std::string::npos)
      << str(S.Reads[0].Relation);
  EXPECT_NE(str(S.Reads[1].Relation).find("S0[a_b, c_d, e_f] -> y[e_f, c_d]"), std::string::npos)
      << str(S.Reads[1].Relation);
  EXPECT_NE(str(S.Write.Relation).find("S0[a_b, c_d, e_f] -> z[a_b, c_d]"), std::string::npos)
      << str(S.Write.Relation);
  // The merged extents: 4·5, 6·7 and 8·9.
  EXPECT_TRUE(MK.Domain.dim_max_val(0).eq(isl::val(MK.Domain.ctx(), 19)));
  EXPECT_TRUE(MK.Domain.dim_max_val(1).eq(isl::val(MK.Domain.ctx(), 41)));
  EXPECT_TRUE(MK.Domain.dim_max_val(2).eq(isl::val(MK.Domain.ctx(), 71)));
}

TEST(MergeIndices, NeedsFixedExtents) {
  auto K = interptest::buildKernel(Contract4);
  ASSERT_TRUE(K);
  EXPECT_FALSE(mergeIndices(*K));
}

TEST(MergeIndices, IndicesThatPartOnSomeAccessStayApart) {
  // b[e, k, j] uses e without i: e and i do not travel together; nor do
  // k and j, which b reads in another order than c writes.
  auto K = interptest::buildKernel(R"(
kernel batched(ne, np: index; a: in f32[ne, np, np], b: in f32[ne, np, np],
               c: out f32[ne, np, np]) {
  domain { [e, i, j, k] : 0 <= e < ne and 0 <= i < np and 0 <= j < np
                          and 0 <= k < np }
  c[e, i, j] = sum(k, a[e, i, k] * b[e, k, j]);
})",
                                   {{"ne", 10}, {"np", 7}});
  ASSERT_TRUE(K);
  EXPECT_FALSE(mergeIndices(*K));
}

TEST(MergeIndices, OnlyBoxesMerge) {
  // A triangle is no box: j's range depends on i.
  auto K = interptest::buildKernel(R"(
kernel tri(n: index; a: in f32[n, n], b: out f32[n, n]) {
  domain { [i, j] : 0 <= j <= i < n }
  b[i, j] = a[i, j];
})",
                                   {{"n", 8}});
  ASSERT_TRUE(K);
  EXPECT_FALSE(mergeIndices(*K));
}

TEST(MergeIndices, AnIndexUsedAsAValueStays) {
  auto K = interptest::buildKernel(R"(
kernel ramp(n, m: index; a: in f32[n, m], b: out f32[n, m]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  b[i, j] = a[i, j] + f32(j);
})",
                                   {{"n", 8}, {"m", 6}});
  ASSERT_TRUE(K);
  EXPECT_FALSE(mergeIndices(*K));
}

TEST(MergeIndices, APaddedRowStaysApart) {
  // Rows of 8 elements hold 6 of the domain: a[i, j] is not a[6 * i + j].
  auto K = interptest::buildKernel(R"(
kernel padded(n: index; a: in f32[n, 8], b: out f32[n, 6]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < 6 }
  b[i, j] = a[i, j];
})",
                                   {{"n", 8}});
  ASSERT_TRUE(K);
  EXPECT_FALSE(mergeIndices(*K));
}

TEST(MergeIndices, TheMergedVariantsJoinTheSpace) {
  auto K = interptest::buildKernel(Contract4, sizes4(4));
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  size_t Merged = 0, Plain = 0;
  for (const Variant &V : Vs)
    ++(V.Merge.empty() ? Plain : Merged);
  EXPECT_GT(Merged, 0u);
  EXPECT_GT(Plain, 0u);
  // A merged variant's name finds it again.
  for (const Variant &V : Vs)
    if (!V.Merge.empty()) {
      std::optional<Variant> F = findVariant(*K, Vs, V.Name, Error);
      ASSERT_TRUE(F) << Error;
      EXPECT_EQ(F->Name, V.Name);
      EXPECT_EQ(F->Merge, V.Merge);
      break;
    }
  // A tag that does not match the kernel's is an error.
  EXPECT_FALSE(findVariant(*K, Vs,
                           "merge(a,b) a_b:g.x,t.x*32 c:seq d:seq e:seq f:seq",
                           Error));
  EXPECT_NE(Error.find("merge(a,b) merge(c,d) merge(e,f)"), std::string::npos)
      << Error;
}

} // namespace
} // namespace loopy
