//===- FusionTest.cpp - Statements that run as one kernel function --------===//
//
// Which statements fuse, which do not and why, and the fused kernel's
// reads, writes and right-hand sides.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "loopy/Frontend/Parser.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Isl.h"

#include <gtest/gtest.h>

#include <sstream>

namespace loopy {
namespace {

const char *DgDiff = R"(
kernel dg_diff(ne, np: index;
               dr, ds, dt: in f32[np, np], u: in f32[ne, np],
               ur, us, ut: out f32[ne, np]) {
  domain { [e, i, j] : 0 <= e < ne and 0 <= i < np and 0 <= j < np }
  ur[e, i] = sum(j, dr[i, j] * u[e, j]);
  us[e, i] = sum(j, ds[i, j] * u[e, j]);
  ut[e, i] = sum(j, dt[i, j] * u[e, j]);
})";

std::string str(const isl::map &M) {
  std::ostringstream OS;
  OS << M;
  return OS.str();
}

TEST(Fusion, StatementsOverOneOutputSpaceBecomeOne) {
  auto K = interptest::buildKernel(DgDiff, {});
  ASSERT_TRUE(K);
  std::optional<FusedKernel> F = fuseStatements(*K);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Tag, "fuse(S0,S1,S2)");
  ASSERT_EQ(F->K.Stmts.size(), 1u);
  EXPECT_EQ(F->Groups, (std::vector<std::vector<unsigned>>{{0, 1, 2}}));
  const Statement &S = F->K.Stmts[0];
  EXPECT_EQ(S.Name, "S0_S1_S2");
  EXPECT_EQ(outputCount(S), 3u);
  // dr, u, ds, dt: u[e, j] once.
  ASSERT_EQ(S.Reads.size(), 4u);
  const char *Arrays[] = {"dr", "u", "ds", "dt"};
  for (unsigned R = 0; R < 4; ++R)
    EXPECT_EQ(F->K.Args[S.Reads[R].Arg].Name, Arrays[R]);
  EXPECT_NE(str(S.Reads[1].Relation).find("S0_S1_S2[e, i, j] -> u[e, j]"),
            std::string::npos)
      << str(S.Reads[1].Relation);
  EXPECT_NE(str(outputWrite(S, 2).Relation)
                .find("S0_S1_S2[e, i, j] -> ut[e, i]"),
            std::string::npos);
  // ut's right-hand side reads dt (read 3) and u (read 1).
  const Expr &Mul = *outputRhs(S, 2).Operands[0];
  ASSERT_EQ(Mul.Operands.size(), 2u);
  EXPECT_EQ(Mul.Operands[0]->AccessId, 3u);
  EXPECT_EQ(Mul.Operands[1]->AccessId, 1u);
  // The fused schedule names the group's reads; the staged u is one.
  std::string Error;
  auto Sch = parseSchedule("e:g.y,t.y*8 i:g.x,t.x*32 j:seq*8 prefetch:u",
                           F->K, S, Error);
  ASSERT_TRUE(Sch) << Error;
  EXPECT_EQ(Sch->Prefetch, (std::vector<unsigned>{1}));
}

TEST(Fusion, ThePlannerAddsOneFamily) {
  auto K = interptest::buildKernel(DgDiff, {{"np", 7}, {"ne", 13}});
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  size_t Fused = 0;
  for (const Variant &V : Vs)
    if (!V.Fuse.empty()) {
      ++Fused;
      EXPECT_EQ(V.Schedules.size(), 1u);
      EXPECT_EQ(V.Name.rfind("fuse(S0,S1,S2) ", 0), 0u) << V.Name;
      // Three outputs' registers per thread, within the limit.
      EXPECT_LE(V.Stats[0].RegisterOutputs, 64);
      EXPECT_EQ(V.Stats[0].RegisterOutputs % 3, 0);
    }
  // The unfused variants stay; the fused ones add about as many as one
  // statement has schedules, not their product.
  size_t Unfused = Vs.size() - Fused;
  EXPECT_GT(Fused, 0u);
  EXPECT_LT(Fused, Unfused);
  // Reads back by name.
  const Variant *First = nullptr;
  for (const Variant &V : Vs)
    if (!V.Fuse.empty() && !First)
      First = &V;
  ASSERT_TRUE(First);
  std::optional<Variant> Back = findVariant(*K, Vs, First->Name, Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->Name, First->Name);
  EXPECT_EQ(Back->Fuse, "fuse(S0,S1,S2)");
}

/// The kernels of \p Text through Sema alone, without the checks: a kernel
/// that the checks reject still shows what fusion refuses.
struct Unchecked {
  IslContext Isl;
  std::unique_ptr<SourceManager> SM;
  std::vector<Kernel> Kernels;
  explicit Unchecked(const char *Text) {
    SM = std::make_unique<SourceManager>("t.loop", Text);
    std::ostringstream Err;
    DiagnosticEngine Diags(SM.get(), Err);
    ast::Module M = parseModule(*SM, Diags);
    Kernels = buildKernels(M, Isl.get(), *SM, Diags, SemaOptions());
    EXPECT_EQ(Diags.errorCount(), 0u) << Err.str();
  }
};

std::string refusal(const Kernel &K) {
  EXPECT_EQ(K.Stmts.size(), 2u);
  EXPECT_FALSE(fuseStatements(K));
  return fusionRefusal(K, K.Stmts[0], K.Stmts[1]);
}

TEST(Fusion, WhyStatementsDoNotFuse) {
  Unchecked U(R"(
kernel bicg(n, m: index; a: in f32[n, m], r: in f32[n], p: in f32[m],
            s: out f32[m], q: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  s[j] = sum(i, r[i] * a[i, j]);
  q[i] = sum(j, a[i, j] * p[j]);
}
kernel roles(n: index; x: in f32[n, n], y: out f32[n, n], z: out f32[n, n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n }
  y[i, j] = x[i, j];
  z[j, i] = x[i, j];
}
kernel indices(n, m: index; x: in f32[n], a: in f32[n, m], y: out f32[n],
               z: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = x[i];
  z[i] = sum(j, a[i, j]);
}
kernel chain(n: index; x: in f32[n], y: inout f32[n], z: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i];
  z[i] = y[i] + x[i];
}
kernel same(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i];
  y[i] = 2 * x[i];
}
)");
  ASSERT_EQ(U.Kernels.size(), 5u);
  // The outputs are different indices: no mapping of the outputs serves
  // both.
  EXPECT_EQ(refusal(U.Kernels[0]),
            "statements S0 and S1 have different output indices");
  // The same indices, but y's row is z's column.
  EXPECT_EQ(refusal(U.Kernels[1]),
            "statements S0 and S1 index their outputs differently (y[i, j], "
            "z[j, i]): one mapping of the outputs cannot serve both");
  EXPECT_EQ(refusal(U.Kernels[2]),
            "statements S0 and S1 run over different indices");
  // S1 reads what S0 writes (the checks reject this kernel too): the
  // fused code would read y before or while S0 writes it.
  EXPECT_EQ(refusal(U.Kernels[3]),
            "statement S1 uses 'y', which statement S0 writes");
  EXPECT_EQ(refusal(U.Kernels[4]),
            "statement S1 uses 'y', which statement S0 writes");
}

TEST(Fusion, AStatementJoinsTheGroupWhoseStatementsItFusesWith) {
  // Only S0 and S2 fuse: S1 writes with the roles swapped.
  Unchecked U(R"(
kernel three(n: index; x: in f32[n, n], y, z, w: out f32[n, n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n and j <= i }
  y[i, j] = x[i, j];
  z[j, i] = x[i, j];
  w[i, j] = 3 * x[i, j];
}
)");
  ASSERT_EQ(U.Kernels.size(), 1u);
  std::optional<FusedKernel> F = fuseStatements(U.Kernels[0]);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Tag, "fuse(S0,S2)");
  EXPECT_EQ(F->Groups, (std::vector<std::vector<unsigned>>{{0, 2}, {1}}));
  ASSERT_EQ(F->K.Stmts.size(), 2u);
  EXPECT_EQ(F->K.Stmts[0].Name, "S0_S2");
  EXPECT_EQ(F->K.Stmts[1].Name, "S1");
  EXPECT_TRUE(F->K.Stmts[1].MoreOutputs.empty());
}

} // namespace
} // namespace loopy
