//===- SemaTest.cpp - Unit tests of Sema's isl results --------------------===//
//
// Checks the isl objects Sema builds against sets and maps written in isl
// notation.
//
//===----------------------------------------------------------------------===//
#include "loopy/Analysis/Checks.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Isl.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace loopy;

namespace {

struct Built {
  IslContext Isl;
  std::unique_ptr<SourceManager> SM;
  std::ostringstream Err;
  std::vector<Kernel> Kernels;
  unsigned Errors = 0;
};

std::unique_ptr<Built> build(const std::string &Text,
                             std::map<std::string, long> Defines = {}) {
  auto B = std::make_unique<Built>();
  B->SM = std::make_unique<SourceManager>("t.loop", Text);
  DiagnosticEngine Diags(B->SM.get(), B->Err);
  ast::Module M = parseModule(*B->SM, Diags);
  SemaOptions O;
  O.Defines = std::move(Defines);
  B->Kernels = buildKernels(M, B->Isl.get(), *B->SM, Diags, O);
  for (const Kernel &K : B->Kernels)
    checkKernel(K, Diags);
  B->Errors = Diags.errorCount();
  return B;
}

const char *Matmul = R"(
kernel matmul(n, m, l: index;
              a: in f32[n, l], b: in f32[l, m], c: out f32[n, m]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
  c[i, j] = sum(k, a[i, k] * b[k, j]);
}
)";

TEST(Sema, MatmulAccessRelations) {
  auto B = build(Matmul);
  ASSERT_EQ(B->Errors, 0u) << B->Err.str();
  ASSERT_EQ(B->Kernels.size(), 1u);
  const Statement &S = B->Kernels[0].Stmts.at(0);
  isl::ctx C = B->Isl.get();
  EXPECT_TRUE(S.Domain.is_equal(isl::set(
      C, "[n, m, l] -> { S0[i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }")));
  EXPECT_TRUE(S.Write.Relation.is_equal(isl::map(
      C, "[n, m, l] -> { S0[i, j, k] -> c[i, j] : 0 <= i < n and 0 <= j < m "
         "and 0 <= k < l }")));
  ASSERT_EQ(S.Reads.size(), 2u);
  EXPECT_TRUE(S.Reads[1].Relation.is_equal(isl::map(
      C, "[n, m, l] -> { S0[i, j, k] -> b[k, j] : 0 <= i < n and 0 <= j < m "
         "and 0 <= k < l }")));
  EXPECT_EQ(S.OutputIndices, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(S.ReductionIndices, (std::vector<unsigned>{2}));
}

TEST(Sema, StatementDomainIsProjectionOntoItsIndices) {
  auto B = build(R"(
kernel k(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i, j] : 0 <= j <= i < n }
  y[i] = x[i];
}
)");
  ASSERT_EQ(B->Errors, 0u) << B->Err.str();
  const Statement &S = B->Kernels[0].Stmts.at(0);
  EXPECT_TRUE(S.Domain.is_equal(
      isl::set(B->Isl.get(), "[n] -> { S0[i] : 0 <= i < n }")));
}

TEST(Sema, DefinesFixParametersInTheContext) {
  auto B = build(Matmul, {{"n", 64}});
  ASSERT_EQ(B->Errors, 0u) << B->Err.str();
  EXPECT_TRUE(B->Kernels[0].Context.is_equal(
      isl::set(B->Isl.get(), "[n, m, l] -> { : n = 64 }")));
}

TEST(Sema, FlooredDivisionSubscriptIsQuasiAffine) {
  auto B = build(R"(
kernel k(n: index; x: in f32[n], y: out f32[2 * n]) {
  domain { [i] : 0 <= i < 2 * n }
  y[i] = x[i / 2];
}
)");
  ASSERT_EQ(B->Errors, 0u) << B->Err.str();
  EXPECT_TRUE(B->Kernels[0].Stmts[0].Reads[0].Relation.is_equal(isl::map(
      B->Isl.get(), "[n] -> { S0[i] -> x[floor(i/2)] : 0 <= i < 2n }")));
}

TEST(Sema, OffByOneReadIsRejected) {
  auto B = build(R"(
kernel k(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i + 1];
}
)");
  EXPECT_EQ(B->Errors, 1u);
  EXPECT_NE(B->Err.str().find("at i = 0 with n = 1 it reads x[1]"),
            std::string::npos)
      << B->Err.str();
}

} // namespace
