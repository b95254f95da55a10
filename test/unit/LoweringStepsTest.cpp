//===- LoweringStepsTest.cpp - Each step of lowering on its own -----------===//
//
// The steps of lowerStatement tested alone, their results compared with
// sets written as isl strings where they are isl objects.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "CodeGen/Addressing.h"
#include "CodeGen/IndexWidth.h"
#include "CodeGen/LoopNests.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"

#include <gtest/gtest.h>

namespace loopy {
namespace {

const char *Copy = R"(
kernel copy(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i];
})";

const char *Strided = R"(
kernel nd(n: index; x: in f32[2 * n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[2 * i + 1] - x[2 * i];
})";

Schedule schedule(const Kernel &K, const std::string &Text) {
  std::string Error;
  auto Sch = parseSchedule(Text, K, K.Stmts[0], Error);
  EXPECT_TRUE(Sch) << Error;
  return Sch ? *Sch : Schedule();
}

TEST(FixedBox, BoxesOfSets) {
  isl::ctx Ctx = isl::ctx(isl_ctx_alloc());
  {
    auto B = fixedBox(isl::set(Ctx, "[b] -> { A[x] : 512b + 1 <= x <= 512b + "
                                    "511 and x mod 2 = 1 }"));
    ASSERT_TRUE(B);
    EXPECT_EQ(B->Size, std::vector<long>{511});
    EXPECT_TRUE(B->Offset.plain_is_equal(
        isl::multi_aff(Ctx, "[b] -> { A[(512b + 1)] }")))
        << B->Offset;
    // No fixed size: the extent grows with n.
    EXPECT_FALSE(fixedBox(isl::set(Ctx, "[n] -> { A[x] : 0 <= x < n }")));
  }
  isl_ctx_free(Ctx.release());
}

TEST(MapStatement, DomainsOfARegisterTile) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  Schedule Sch = schedule(*K, "i:g.x,t.x*32,ilp2");
  LoweringCache Cache;
  auto M = mapStatement(*K, K->Stmts[0], Sch, Cache);
  ASSERT_TRUE(M) << M.failure().Message;
  EXPECT_EQ(M->ParamNames, (std::vector<std::string>{"n", "bx", "tx"}));
  isl::ctx Ctx = K->Domain.ctx();
  // Thread tx of block bx holds outputs 64bx + 2tx + u, u in {0, 1}.
  EXPECT_TRUE(M->Ext.is_equal(isl::set(
      Ctx, "[n, bx, tx] -> { [i, u] : i = 64bx + 2tx + u and 0 <= u <= 1 "
           "and 0 <= i < n and 0 <= tx < 32 and bx >= 0 }")))
      << M->Ext;
  // The block's iterations do not depend on the split among threads.
  EXPECT_TRUE(M->blockIterations().is_equal(isl::set(
      Ctx, "[n, bx, tx] -> { S0[i] : 64bx <= i < 64bx + 64 and 0 <= i < n "
           "and bx >= 0 }")))
      << M->blockIterations();
  Schedule Other = schedule(*K, "i:g.x,t.x*64");
  auto M2 = mapStatement(*K, K->Stmts[0], Other, Cache);
  ASSERT_TRUE(M2);
  EXPECT_EQ(M->blockKey(), M2->blockKey());
}

TEST(MapStatement, BoundsBlocks) {
  auto K = interptest::buildKernel(Copy);
  ASSERT_TRUE(K);
  Schedule Sch = schedule(*K, "i:g.x,t.x*32,ilp2");
  LoweringCache Cache;
  auto M = mapStatement(*K, K->Stmts[0], Sch, Cache);
  ASSERT_TRUE(M);
  boundBlocks(*M, Cache.block(M->blockKey()));
  BlockGrid Grid = blockGrid(*M, true);
  EXPECT_EQ(Grid.C[0], "(n + 63) / 64");
  EXPECT_EQ(Grid.C[1], "1");
  EXPECT_EQ(Grid.LaunchIf, "n >= 1");
}

TEST(StageReads, TightBoxOfAStridedRead) {
  auto K = interptest::buildKernel(Strided);
  ASSERT_TRUE(K);
  for (const char *S : {"i:g.x,t.x*64,ilp4s prefetch:x@0",
                        "i:g.x,t.x*32,ilp8 prefetch:x@0"}) {
    Schedule Sch = schedule(*K, S);
    LoweringCache Cache;
    auto M = mapStatement(*K, K->Stmts[0], Sch, Cache);
    ASSERT_TRUE(M);
    LoweringCache::Block &Facts = Cache.block(M->blockKey());
    boundBlocks(*M, Facts);
    auto Stages = stageReads(*M, Facts);
    ASSERT_TRUE(Stages) << Stages.failure().Message;
    ASSERT_EQ(Stages->size(), 1u);
    const Stage &St = Stages->front();
    EXPECT_EQ(St.Buf, "x_sh");
    // Elements 512bx + 1, 512bx + 3, ..., 512bx + 511.
    EXPECT_EQ(St.Box.Size, std::vector<long>{511}) << S;
    EXPECT_TRUE(St.Footprint.is_equal(isl::set(
        K->Domain.ctx(), "[n, bx] -> { x[a] : exists (i : a = 2i + 1 and "
                         "256bx <= i < 256bx + 256 and 0 <= i < n) }")))
        << St.Footprint;
  }
}

TEST(StageReads, NoFixedBoxIsAFailure) {
  // Per block and tile of k, x[l] is read for every l < n: a footprint
  // that grows with n.
  auto K = interptest::buildKernel(R"(
kernel two(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i, k, l] : 0 <= i < n and 0 <= k < 16 and 0 <= l < n }
  y[i] = sum((k, l), x[l]);
})");
  ASSERT_TRUE(K);
  Schedule Sch = schedule(*K, "i:g.x,t.x*32 l:seq k:seq*8 prefetch:x");
  LoweringCache Cache;
  auto M = mapStatement(*K, K->Stmts[0], Sch, Cache);
  ASSERT_TRUE(M);
  LoweringCache::Block &Facts = Cache.block(M->blockKey());
  boundBlocks(*M, Facts);
  auto Stages = stageReads(*M, Facts);
  ASSERT_FALSE(Stages);
  EXPECT_FALSE(Stages.failure().isInternal());
  EXPECT_NE(Stages.failure().Message.find("no fixed size"), std::string::npos);
}

TEST(IndexWidth, FixedSmallSizesFit) {
  auto Sym = interptest::buildKernel(Copy);
  auto Small = interptest::buildKernel(Copy, {{"n", 1000}});
  auto Large = interptest::buildKernel(Copy, {{"n", 3000000000L}});
  ASSERT_TRUE(Sym && Small && Large);
  EXPECT_FALSE(indexFitsIn32Bits(*Sym, Sym->Stmts[0]));
  EXPECT_TRUE(indexFitsIn32Bits(*Small, Small->Stmts[0]));
  EXPECT_FALSE(indexFitsIn32Bits(*Large, Large->Stmts[0]));
}

TEST(Addressing, RowMajorStrides) {
  auto K = interptest::buildExample("matmul");
  ASSERT_TRUE(K);
  Schedule Sch = schedule(*K, "i:g.y,t.y*8 j:g.x,t.x*32 k:seq");
  LoweringCache Cache;
  auto M = mapStatement(*K, K->Stmts[0], Sch, Cache);
  ASSERT_TRUE(M);
  Addressing A = buildAddressing(*M);
  // Arguments n, m, l, a, b, c; a[n, l]: a row is l elements.
  EXPECT_EQ(A.Strides[3], (std::vector<std::string>{"l", "1"}));
  EXPECT_EQ(A.element(3, {"i", "k + 1"}), "a[i * l + k + 1]");
  EXPECT_EQ(A.element(5, {"i + 1", "j"}), "c[(i + 1) * m + j]");
}

TEST(LoopNests, KeptByWhatIslWasGiven) {
  isl::ctx Ctx = isl::ctx(isl_ctx_alloc());
  {
    LoweringCache Cache;
    isl::union_map S(Ctx, "[n] -> { T[i] -> [i] : 0 <= i < n }");
    isl::set C(Ctx, "[n] -> { : n >= 0 }");
    const LoweringCache::Nest &A = loopNest(Cache, S, C, {"i"}, {false});
    const LoweringCache::Nest &B = loopNest(Cache, S, C, {"i"}, {false});
    EXPECT_EQ(&A, &B);
    EXPECT_EQ(A.Builds.size(), 1u);
    const LoweringCache::Nest &D = loopNest(Cache, S, C, {"j"}, {false});
    EXPECT_NE(&A, &D);
    // Unrolled over a constant range: one instance per point.
    isl::union_map U(Ctx, "{ T[i] -> [i] : 0 <= i < 3 }");
    const LoweringCache::Nest &E =
        loopNest(Cache, U, isl::set(Ctx, "{ : }"), {"i"}, {true});
    EXPECT_EQ(E.Builds.size(), 3u);
  }
  isl_ctx_free(Ctx.release());
}

} // namespace
} // namespace loopy
