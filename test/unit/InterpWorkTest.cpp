//===- InterpWorkTest.cpp - Counted operations and bytes of kernels -------===//
//
// countWork on the example kernels and on kernels built from .loop text,
// against counts worked out by hand: box, triangular and empty domains,
// full reductions, footprints that overlap, and sizes far too large to
// enumerate.
//
//===----------------------------------------------------------------------===//
#include "loopy/Interp/Work.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace loopy;
using namespace loopy::interptest;

namespace {

/// Expects \p W to be \p Flops operations, \p Read bytes read and
/// \p Written bytes written, exactly.
void expectWork(const KernelWork &W, double Flops, double Read,
                double Written) {
  EXPECT_EQ(W.Flops, Flops);
  EXPECT_EQ(W.BytesRead, Read);
  EXPECT_EQ(W.BytesWritten, Written);
  EXPECT_EQ(W.bytes(), Read + Written);
}

TEST(InterpWork, MatmulIsTwoFlopsPerTerm) {
  auto K = buildExample("matmul");
  ASSERT_TRUE(K);
  double N = 13, M = 7, L = 21;
  expectWork(countWork(*K, {{"n", 13}, {"m", 7}, {"l", 21}}), 2 * N * M * L,
             (N * L + L * M) * 4, N * M * 4);
}

TEST(InterpWork, LinCombIsThreeFlopsPerElement) {
  auto K = buildExample("lin_comb");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 1000}}), 3000, 8000, 4000);
}

TEST(InterpWork, DotReducesIntoOneElement) {
  auto K = buildExample("dot");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 100}}), 200, 800, 4);
}

TEST(InterpWork, TriangularMatvecCountsTheTriangle) {
  auto K = buildExample("tri_matvec");
  ASSERT_TRUE(K);
  for (double N : {1, 2, 37, 1000}) {
    double Triangle = N * (N + 1) / 2;
    expectWork(countWork(*K, {{"n", long(N)}}), 2 * Triangle,
               (Triangle + N) * 8, N * 8);
  }
}

TEST(InterpWork, EmptyDomainsCountNothing) {
  auto LC = buildExample("lin_comb");
  ASSERT_TRUE(LC);
  expectWork(countWork(*LC, {{"n", 0}}), 0, 0, 0);
  // No k: the domain is empty, so no element of c is written either.
  auto MM = buildExample("matmul");
  ASSERT_TRUE(MM);
  expectWork(countWork(*MM, {{"n", 5}, {"m", 6}, {"l", 0}}), 0, 0, 0);
}

TEST(InterpWork, LargeSizesAreExact) {
  auto MM = buildExample("matmul");
  ASSERT_TRUE(MM);
  double N = 4096;
  expectWork(countWork(*MM, {{"n", 4096}, {"m", 4096}, {"l", 4096}}),
             2 * N * N * N, 2 * N * N * 4, N * N * 4);
  auto LC = buildExample("lin_comb");
  ASSERT_TRUE(LC);
  double L = 1L << 28;
  expectWork(countWork(*LC, {{"n", 1L << 28}}), 3 * L, 2 * L * 4, L * 4);
}

TEST(InterpWork, OperationsOutsideAReductionCountPerOutput) {
  auto K = buildKernel(R"(
kernel gemv(n, m: index; alpha: f32; a: in f32[n, m], x: in f32[m],
            b: in f32[n], y: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = alpha * sum(j, a[i, j] * x[j]) + b[i];
}
)");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 10}, {"m", 30}}), 2 * 10 * 30 + 2 * 10,
             (10 * 30 + 30 + 10) * 4, 10 * 4);
}

TEST(InterpWork, CallsCountOnceAndFmaTwice) {
  auto K = buildKernel(R"(
kernel math(n: index; x: in f64[n], y: out f64[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = sqrt(abs(x[i])) + exp(x[i]) - log(x[i]) + sin(x[i]) * cos(x[i])
         + tanh(x[i]) + pow(x[i], 2) + fma(x[i], x[i], 1.5)
         + min(x[i], 0) + max(x[i], 1);
}
)");
  ASSERT_TRUE(K);
  // 10 calls of one operation, fma's two and 9 operators.
  expectWork(countWork(*K, {{"n", 10}}), 21 * 10, 80, 80);
}

TEST(InterpWork, IndexArithmeticAndSelectsAreFree) {
  auto K = buildKernel(R"(
kernel scaled(n: index; x: in f32[n], y: out f32[n], z: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i] * f32(2 * i + 1);
  z[i] = select(x[i] > 0 && x[i] < 100, x[i], -x[i]);
}
)");
  ASSERT_TRUE(K);
  // One multiply in y, one negation in z's second arm.
  expectWork(countWork(*K, {{"n", 50}}), 50 + 50, 200, 400);
}

TEST(InterpWork, IntegerOperationsOnDataCount) {
  auto K = buildKernel(R"(
kernel imad(n: index; a: in i32[n], b: in i64[n], c: out i64[n]) {
  domain { [i] : 0 <= i < n }
  c[i] = i64(a[i]) * b[i] + 1;
}
)");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 20}}), 40, 20 * 4 + 20 * 8, 20 * 8);
}

TEST(InterpWork, OverlappingReadsCountOnce) {
  auto K = buildKernel(R"(
kernel stencil(n: index; a: in f32[n], b: out f32[n]) {
  assume n >= 2;
  domain { [i] : 1 <= i < n - 1 }
  b[i] = a[i - 1] + a[i] + a[i + 1];
}
)");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 100}}), 2 * 98, 100 * 4, 98 * 4);
}

TEST(InterpWork, ArraysReadAndWrittenCountInBoth) {
  auto K = buildKernel(R"(
kernel axpy(n: index; alpha: f32; x: in f32[n], y: inout f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = alpha * x[i] + y[i];
}
)");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 64}}), 128, 2 * 64 * 4, 64 * 4);
}

TEST(InterpWork, ArraysReadByTwoStatementsCountOnce) {
  auto K = buildKernel(R"(
kernel two(n, m: index; a: in f32[n, m], rowsum: out f32[n],
           c: out f32[n, m]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  c[i, j] = a[i, j] * a[i, j];
  rowsum[i] = sum(j, a[i, j]);
}
)");
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {{"n", 6}, {"m", 9}}), 2 * 6 * 9, 6 * 9 * 4,
             (6 + 6 * 9) * 4);
}

TEST(InterpWork, FixedParametersMayBeLeftOut) {
  auto K = buildExample("lin_comb", {{"n", 12}});
  ASSERT_TRUE(K);
  expectWork(countWork(*K, {}), 36, 96, 48);
  EXPECT_THROW(countWork(*K, {{"n", 13}}), std::invalid_argument);
  auto Free = buildExample("lin_comb");
  ASSERT_TRUE(Free);
  EXPECT_THROW(countWork(*Free, {}), std::invalid_argument);
}

} // namespace
