//===- InterpTest.cpp - Unit tests of the reference interpreter -----------===//
//
// Runs kernels built from .loop text and checks every written element
// against loops written out by hand, including the elements a statement
// must leave alone.
//
//===----------------------------------------------------------------------===//
#include "loopy/Interp/Fill.h"
#include "loopy/Interp/Interpreter.h"
#include "loopy/Support/Half.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <iterator>
#include <memory>

using namespace loopy;


using namespace loopy::interptest;

namespace {

double at(const HostArray &A, std::vector<long> Sub) {
  return A.getDouble(A.offset(Sub));
}
int64_t intAt(const HostArray &A, std::vector<long> Sub) {
  return A.getInt(A.offset(Sub));
}

const char *Matmul = R"(
kernel matmul(n, m, l: index;
              a: in f32[n, l], b: in f32[l, m], c: out f32[n, m]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
  c[i, j] = sum(k, a[i, k] * b[k, j]);
}
)";

TEST(Interp, MatmulMatchesTripleLoop) {
  auto K = buildKernel(Matmul);
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 13}, {"m", 7}, {"l", 21}}, 1);
  interpret(*K, D);
  const HostArray &A = D.array("a"), &B = D.array("b"), &C = D.array("c");
  for (long I = 0; I < 13; ++I)
    for (long J = 0; J < 7; ++J) {
      double S = 0;
      for (long L = 0; L < 21; ++L)
        S += double(float(at(A, {I, L}) * at(B, {L, J})));
      ASSERT_EQ(at(C, {I, J}), double(float(S))) << "c[" << I << ", " << J << "]";
    }
}

TEST(Interp, TriangularMatvecSumsTheTriangle) {
  auto K = buildKernel(R"(
kernel tri_matvec(n: index; l: in f64[n, n], x: in f64[n], y: out f64[n]) {
  domain { [i, j] : 0 <= j <= i < n }
  y[i] = sum(j, l[i, j] * x[j]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 17}}, 2);
  interpret(*K, D);
  for (long I = 0; I < 17; ++I) {
    double S = 0;
    for (long J = 0; J <= I; ++J)
      S += at(D.array("l"), {I, J}) * at(D.array("x"), {J});
    EXPECT_EQ(at(D.array("y"), {I}), S) << "y[" << I << "]";
  }
}

TEST(Interp, DotReducesToAZeroDimensionalArray) {
  auto K = buildKernel(R"(
kernel dot(n: index; x: in f32[n], y: in f32[n], r: out f32[]) {
  domain { [i] : 0 <= i < n }
  r[] = sum(i, x[i] * y[i]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 1000}}, 3);
  ASSERT_EQ(D.array("r").size(), 1u);
  interpret(*K, D);
  double S = 0;
  for (long I = 0; I < 1000; ++I)
    S += double(float(at(D.array("x"), {I}) * at(D.array("y"), {I})));
  EXPECT_EQ(at(D.array("r"), {}), double(float(S)));
}

TEST(Interp, RowMaxTakesTheLargestElement) {
  auto K = buildKernel(R"(
kernel row_max(n, m: index; a: in f32[n, m], r: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  r[i] = max(j, a[i, j]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 9}, {"m", 31}}, 4);
  interpret(*K, D);
  for (long I = 0; I < 9; ++I) {
    double M = -INFINITY;
    for (long J = 0; J < 31; ++J)
      M = std::max(M, at(D.array("a"), {I, J}));
    EXPECT_EQ(at(D.array("r"), {I}), M);
  }
}

TEST(Interp, LayoutsPlaceElementsByTheirStrides) {
  auto K = buildKernel(R"(
kernel add_layouts(n, m: index;
                   a: in f32[n, m] layout(col_major),
                   b: in f32[n, m] layout(row_major),
                   c: in f32[n, m] strides(1, n + 3),
                   d: out f32[n, m]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  d[i, j] = a[i, j] + b[i, j] + c[i, j];
}
)");
  ASSERT_TRUE(K);
  const long N = 5, M = 4;
  HostData D = randomData(*K, {{"n", N}, {"m", M}}, 5);
  const HostArray &A = D.array("a"), &B = D.array("b"), &C = D.array("c");
  EXPECT_EQ(A.strides(), (std::vector<long>{1, N}));
  EXPECT_EQ(B.strides(), (std::vector<long>{M, 1}));
  EXPECT_EQ(C.strides(), (std::vector<long>{1, N + 3}));
  EXPECT_EQ(C.size(), size_t((N - 1) + (N + 3) * (M - 1) + 1));
  interpret(*K, D);
  for (long I = 0; I < N; ++I)
    for (long J = 0; J < M; ++J) {
      float Want = float(float(A.getDouble(I + N * J) + B.getDouble(I * M + J)) +
                         C.getDouble(I + (N + 3) * J));
      EXPECT_EQ(D.array("d").getDouble(I * M + J), Want) << I << ", " << J;
    }
}

TEST(Interp, IntegerArithmeticFollowsC) {
  auto K = buildKernel(R"(
kernel ints(n: index; q: in i32[n], a: in i64[n, n],
            z: out i32[n], s: out i64[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n }
  z[i] = q[i] / 3 + q[i] % 3 * 10 + abs(q[i]) * 100 + max(q[i], 2) * 1000;
  s[i] = sum(j, a[i, j] * (j - 2) + i64(q[j]));
}
)");
  ASSERT_TRUE(K);
  const long N = 12;
  HostData D = randomData(*K, {{"n", N}}, 6);
  interpret(*K, D);
  for (long I = 0; I < N; ++I) {
    int32_t Q = int32_t(intAt(D.array("q"), {I}));
    int32_t Want = Q / 3 + Q % 3 * 10 + std::abs(Q) * 100 + std::max(Q, 2) * 1000;
    EXPECT_EQ(intAt(D.array("z"), {I}), Want) << "z[" << I << "]";
    int64_t S = 0;
    for (long J = 0; J < N; ++J)
      S += intAt(D.array("a"), {I, J}) * (J - 2) + intAt(D.array("q"), {J});
    EXPECT_EQ(intAt(D.array("s"), {I}), S) << "s[" << I << "]";
  }
}

TEST(Interp, CastsRoundTruncateAndSaturate) {
  auto K = buildKernel(R"(
kernel casts(n: index; d: in f64[n], y: out f32[n], q: out i32[n],
             w: out i64[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = f32(d[i] / 3);
  q[i] = i32(d[i] * 1e10);
  w[i] = i64(d[i] * 2.5);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 40}}, 13);
  std::vector<std::vector<long>> Points;
  for (long I = 0; I < 40; ++I)
    Points.push_back({I});
  std::vector<double> Y = interpretPoints(*K, D, 0, Points);
  interpret(*K, D);
  for (long I = 0; I < 40; ++I) {
    double X = at(D.array("d"), {I});
    EXPECT_EQ(Y[I], double(float(X / 3)));
    EXPECT_EQ(at(D.array("y"), {I}), double(float(X / 3)));
    EXPECT_EQ(intAt(D.array("q"), {I}), X > 0 ? INT32_MAX : INT32_MIN);
    EXPECT_EQ(intAt(D.array("w"), {I}), int64_t(X * 2.5)) << "truncates";
  }
}

TEST(Interp, MathFunctionsWorkInTheTypesPrecision) {
  auto K = buildKernel(R"(
kernel math(n: index; x: in f32[n], d: in f64[n], y: out f32[n], e: out f64[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = exp(x[i]) * tanh(x[i]) + pow(abs(x[i]), 1.5) - max(x[i], 0);
  e[i] = exp(d[i]) * tanh(d[i]) + pow(abs(d[i]), 1.5) - max(d[i], 0);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 50}}, 15);
  interpret(*K, D);
  for (long I = 0; I < 50; ++I) {
    float X = at(D.array("x"), {I});
    float Y = expf(X) * tanhf(X);
    Y = Y + powf(fabsf(X), 1.5f);
    Y = Y - fmaxf(X, 0.0f);
    EXPECT_EQ(at(D.array("y"), {I}), Y) << "y[" << I << "]";
    double Dv = at(D.array("d"), {I});
    EXPECT_EQ(at(D.array("e"), {I}), std::exp(Dv) * std::tanh(Dv) +
                                         std::pow(std::fabs(Dv), 1.5) -
                                         std::fmax(Dv, 0.0));
  }
}

TEST(Interp, HalfTypesRoundEachOperationAndAccumulateInFloat) {
  // In f16, 1 + 2^-12 is 1 (its unit in the last place at 1 is 2^-10), so
  // the first statement writes 0 where float would keep 2^-12; the sum of
  // 4096 ones counts past 2048, where f16 would stop adding 1, since it
  // accumulates in float and rounds once; bf16 keeps 8 bits.
  auto K = buildKernel(R"(
kernel half(n: index; x: in f16[n], y: out f16[n], s: out f16[], b: out bf16[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = (x[i] * 0 + 1 + 0.000244140625) - 1;
  s[] = sum(i, x[i] * 0 + 1);
  b[i] = bf16(f32(x[i]) * 0 + 1.00390625);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 4096}}, 3);
  interpret(*K, D);
  EXPECT_EQ(at(D.array("y"), {7}), 0.0);
  EXPECT_EQ(at(D.array("s"), {}), 4096.0);
  EXPECT_EQ(at(D.array("b"), {0}), 1.0) << "a tie rounds to even";
  // Inputs are f16 values: widened, they round to themselves.
  double X = at(D.array("x"), {5});
  EXPECT_EQ(double(f16ToFloat(floatToF16(float(X)))), X);
  EXPECT_NE(X, 0.0);
}

TEST(Interp, NarrowIntegersWrapAndSaturate) {
  // i8, u8, i16 and u16 compute in i32 and wrap each result to the type;
  // a sum wraps once, at its end; a cast from a float saturates.
  auto K = buildKernel(R"(
kernel narrow(n: index; a: in u8[n], b: in i8[n], f: in f32[n], s: out u8[],
              w: out u8[n], q: out i8[n], m: out i8[n], c: out u8[n],
              g: out i16[n], h: out i16[n], d: out u8[n]) {
  domain { [i] : 0 <= i < n }
  s[] = sum(i, a[i]);
  w[i] = a[i] + u8(10);
  d[i] = (a[i] + u8(10)) / u8(2);
  q[i] = b[i] / i8(-1);
  m[i] = -b[i];
  c[i] = u8(f[i] * 100);
  g[i] = i16(a[i]) * i16(b[i]);
  h[i] = i16(a[i]) * i16(200);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 4}}, 5);
  const int64_t A[] = {250, 200, 100, 7}, B[] = {-128, 5, -1, 127};
  const double F[] = {3.0, -2.0, 1.0, 0.019};
  for (long I = 0; I < 4; ++I) {
    D.array("a").setInt(I, A[I]);
    D.array("b").setInt(I, B[I]);
    D.array("f").setDouble(I, F[I]);
  }
  interpret(*K, D);
  EXPECT_EQ(intAt(D.array("s"), {}), (250 + 200 + 100 + 7) % 256);
  const int64_t W[] = {4, 210, 110, 17}, Q[] = {-128, -5, 1, -127},
                C[] = {255, 0, 100, 1}, G[] = {-32000, 1000, -100, 889},
                H[] = {50000 - 65536, 40000 - 65536, 20000, 1400},
                Half[] = {2, 105, 55, 8};
  for (long I = 0; I < 4; ++I) {
    EXPECT_EQ(intAt(D.array("w"), {I}), W[I]) << I;
    EXPECT_EQ(intAt(D.array("d"), {I}), Half[I]) << "the sum wraps first";
    EXPECT_EQ(intAt(D.array("q"), {I}), Q[I]) << "the minimum / -1 wraps";
    EXPECT_EQ(intAt(D.array("m"), {I}), Q[I]) << "-(-128) wraps";
    EXPECT_EQ(intAt(D.array("c"), {I}), C[I]) << "saturates at 0 and 255";
    EXPECT_EQ(intAt(D.array("g"), {I}), G[I]) << I;
    EXPECT_EQ(intAt(D.array("h"), {I}), H[I]) << "wraps modulo 2^16";
  }
}

TEST(Interp, NestedAndSideBySideReductionsMeanWhatTheySay) {
  // The statements that splitReductions makes compute, with their
  // temporaries, what the nested reductions mean: the loops by hand.
  auto K = buildKernel(R"(
kernel nested(n, m: index; x: in f64[n, m], y: out f64[n, m], p: out f64[n]) {
  domain { [i, j, k, l] : 0 <= i < n and 0 <= j < m and 0 <= k < m and 0 <= l < m }
  y[i, j] = exp(x[i, j] - max(k, x[i, k])) / sum(l, exp(x[i, l] - max(k, x[i, k])));
  p[i] = sum(j, x[i, j]) * min(k, x[i, k]);
}
)");
  ASSERT_TRUE(K);
  const long N = 5, M = 7;
  HostData D = randomData(*K, {{"n", N}, {"m", M}}, 21);
  interpret(*K, D);
  for (long I = 0; I < N; ++I) {
    double Max = -INFINITY, Sum = 0, Rs = 0, Min = INFINITY;
    for (long J = 0; J < M; ++J) {
      Max = std::max(Max, at(D.array("x"), {I, J}));
      Rs += at(D.array("x"), {I, J});
      Min = std::min(Min, at(D.array("x"), {I, J}));
    }
    for (long L = 0; L < M; ++L)
      Sum += std::exp(at(D.array("x"), {I, L}) - Max);
    for (long J = 0; J < M; ++J)
      EXPECT_NEAR(at(D.array("y"), {I, J}),
                  std::exp(at(D.array("x"), {I, J}) - Max) / Sum, 1e-14);
    EXPECT_NEAR(at(D.array("p"), {I}), Rs * Min, 1e-13);
  }

  auto T = buildKernel(R"(
kernel tied(n: index; a: in f64[n, n], b: in f64[n, n], y: out f64[n]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < i }
  y[i] = sum(j, a[i, j] * max(k, b[j, k]));
}
)");
  ASSERT_TRUE(T);
  HostData E = randomData(*T, {{"n", N}}, 22);
  interpret(*T, E);
  // Row i's max runs over k < i: row 0 has none, so y[0] is not written.
  EXPECT_TRUE(std::isnan(at(E.array("y"), {0})));
  for (long I = 1; I < N; ++I) {
    double S = 0;
    for (long J = 0; J < N; ++J) {
      double Max = -INFINITY;
      for (long Kk = 0; Kk < I; ++Kk)
        Max = std::max(Max, at(E.array("b"), {J, Kk}));
      S += at(E.array("a"), {I, J}) * Max;
    }
    EXPECT_NEAR(at(E.array("y"), {I}), S, 1e-13) << "y[" << I << "]";
  }
}

TEST(Interp, LiteralsTakeTheTypeTheyMeet) {
  auto K = buildKernel(R"(
kernel literals(n: index; y: out f32[n], z: out i32[n], w: out f64[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = 7 / 2;
  z[i] = 7 / 2 - 9 % 4;
  w[i] = 1 / 3 + f64(i);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 3}}, 7);
  interpret(*K, D);
  EXPECT_EQ(at(D.array("y"), {2}), 3.5);
  EXPECT_EQ(intAt(D.array("z"), {2}), 2);
  EXPECT_EQ(at(D.array("w"), {2}), 1.0 / 3 + 2);
}

TEST(Interp, EmptyReductionRangeWritesNothing) {
  auto K = buildKernel(R"(
kernel strict_prefix(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i, j] : 0 <= j < i < n }
  y[i] = sum(j, x[j]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 6}}, 8);
  interpret(*K, D);
  const HostArray &Y = D.array("y");
  EXPECT_TRUE(isPoison(Y, 0)) << "y[0] has no reduction points";
  double S = 0;
  for (long I = 1; I < 6; ++I) {
    S += at(D.array("x"), {I - 1});
    EXPECT_FALSE(isPoison(Y, I));
    EXPECT_EQ(at(Y, {I}), double(float(S)));
  }
}

TEST(Interp, ZeroSizesWriteNothing) {
  auto K = buildKernel(R"(
kernel dot_and_copy(n: index; x: in f32[n], y: out f32[n], r: out f32[]) {
  domain { [i] : 0 <= i < n }
  y[i] = x[i];
  r[] = sum(i, x[i]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 0}}, 14);
  EXPECT_EQ(D.array("x").size(), 0u);
  interpret(*K, D);
  EXPECT_TRUE(isPoison(D.array("r"), 0)) << "the domain is empty";
}

TEST(Interp, DomainsWithStridesUnionsAndFloorDivision) {
  auto K = buildKernel(R"(
kernel shapes(n: index; x: in f32[2 * n], y: out f32[2 * n], z: out f32[2, n]) {
  assume n >= 2;
  domain { [i] : 0 <= i < 2 * n and (i mod 3 = 0 or i >= 2 * n - 2) }
  y[i] = 2 * x[i] + x[(i - 3) / 2 + 2] + x[(i - 3) % 2];
  z[i % 2, i / 2] = x[i];
}
)");
  ASSERT_TRUE(K);
  const long N = 7;
  HostData D = randomData(*K, {{"n", N}}, 9);
  interpret(*K, D);
  for (long I = 0; I < 2 * N; ++I) {
    bool In = I % 3 == 0 || I >= 2 * N - 2;
    const HostArray &Y = D.array("y"), &Z = D.array("z");
    EXPECT_EQ(isPoison(Y, I), !In) << "y[" << I << "]";
    EXPECT_EQ(isPoison(Z, Z.offset({I % 2, I / 2})), !In) << "z of " << I;
    if (In) {
      long Floor = (I - 3 - (I < 3)) / 2, Mod = ((I - 3) % 2 + 2) % 2;
      float Want = float(2 * at(D.array("x"), {I})) +
                   float(at(D.array("x"), {Floor + 2}));
      Want += float(at(D.array("x"), {Mod}));
      EXPECT_EQ(at(Y, {I}), Want) << "y[" << I << "]";
      EXPECT_EQ(at(Z, {I % 2, I / 2}), at(D.array("x"), {I}));
    }
  }
}

TEST(Interp, MultiIndexReductionsScalarsAndInoutUpdates) {
  auto K = buildKernel(R"(
kernel multi(n, m: index; alpha: f64, a: in f64[n, m], r: out f64[],
             y: inout f64[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m and j <= i + m - 3 }
  r[] = max((i, j), abs(a[i, j]));
  y[i] = y[i] + alpha * f64(n) * prod(j, a[i, j]);
}
)");
  ASSERT_TRUE(K);
  const long N = 6, M = 4;
  HostData D = randomData(*K, {{"n", N}, {"m", M}}, 10);
  HostArray Y0 = D.array("y");
  double Alpha = D.Scalars.at("alpha").Float;
  interpret(*K, D);
  double Max = -INFINITY;
  for (long I = 0; I < N; ++I) {
    double P = 1;
    for (long J = 0; J <= I + M - 3 && J < M; ++J) {
      Max = std::max(Max, std::fabs(at(D.array("a"), {I, J})));
      P *= at(D.array("a"), {I, J});
    }
    EXPECT_EQ(at(D.array("y"), {I}), at(Y0, {I}) + Alpha * double(N) * P);
  }
  EXPECT_EQ(at(D.array("r"), {}), Max);
}

// x / 0 = 0 and x % 0 = x; C's truncation otherwise; the minimum divided by
// -1 wraps to itself, remainder 0 (docs/language.md, 8.2).
TEST(Interp, IntegerDivisionIsDefinedEverywhere) {
  auto K = buildKernel(R"(
kernel divide(n: index; a: in i64[n], b: in i64[n], c: in i32[n], d: in i32[n],
              q: out i64[n], r: out i64[n], q32: out i32[n], r32: out i32[n]) {
  domain { [i] : 0 <= i < n }
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  q32[i] = c[i] / d[i];
  r32[i] = c[i] % d[i];
}
)");
  ASSERT_TRUE(K);
  struct Case {
    int64_t A, B, Q, R;
  };
  const int64_t Min64 = INT64_MIN;
  const Case Cases64[] = {{7, 0, 0, 7},         {-7, 0, 0, -7},
                          {7, 2, 3, 1},         {-7, 2, -3, -1},
                          {7, -2, -3, 1},       {Min64, -1, Min64, 0},
                          {Min64, 0, 0, Min64}, {5, -1, -5, 0}};
  const int64_t Min32 = INT32_MIN;
  const Case Cases32[] = {{7, 0, 0, 7},         {-7, 0, 0, -7},
                          {7, 2, 3, 1},         {-7, 2, -3, -1},
                          {7, -2, -3, 1},       {Min32, -1, Min32, 0},
                          {Min32, 0, 0, Min32}, {5, -1, -5, 0}};
  const long N = std::size(Cases64);
  HostData D = randomData(*K, {{"n", N}}, 3);
  for (long I = 0; I < N; ++I) {
    D.array("a").setInt(D.array("a").offset({I}), Cases64[I].A);
    D.array("b").setInt(D.array("b").offset({I}), Cases64[I].B);
    D.array("c").setInt(D.array("c").offset({I}), Cases32[I].A);
    D.array("d").setInt(D.array("d").offset({I}), Cases32[I].B);
  }
  interpret(*K, D);
  for (long I = 0; I < N; ++I) {
    EXPECT_EQ(intAt(D.array("q"), {I}), Cases64[I].Q) << "case " << I;
    EXPECT_EQ(intAt(D.array("r"), {I}), Cases64[I].R) << "case " << I;
    EXPECT_EQ(intAt(D.array("q32"), {I}), Cases32[I].Q) << "case " << I;
    EXPECT_EQ(intAt(D.array("r32"), {I}), Cases32[I].R) << "case " << I;
  }
}

TEST(Interp, InterpretPointsAgreesWithInterpret) {
  auto K = buildKernel(R"(
kernel tri(n: index; a: in f32[n, n], b: in f32[n, n], c: out f32[n, n]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k <= i }
  c[i, j] = sum(k, a[i, k] * b[k, j]);
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 19}}, 11);
  std::vector<std::vector<long>> Points = {{0, 0}, {18, 18}, {5, 11}, {18, 0},
                                           {19, 0}, {-1, 3}};
  std::vector<double> V = interpretPoints(*K, D, 0, Points);
  std::vector<long> Off = writtenOffsets(*K, D, 0, Points);
  interpret(*K, D);
  ASSERT_EQ(V.size(), Points.size());
  for (size_t P = 0; P < 4; ++P) {
    EXPECT_EQ(Off[P], Points[P][0] * 19 + Points[P][1]);
    EXPECT_EQ(V[P], at(D.array("c"), Points[P]));
  }
  EXPECT_TRUE(std::isnan(V[4]) && std::isnan(V[5])) << "outside the domain";
  EXPECT_EQ(Off[4], -1);
  EXPECT_EQ(Off[5], -1);
}

TEST(Interp, SampledPointsAreDistinctOutputPointsInOrder) {
  auto K = buildKernel(Matmul);
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 40}, {"m", 30}, {"l", 2}}, 12);
  auto P = sampleOutputPoints(*K, D, 0, 50, 7);
  ASSERT_EQ(P.size(), 50u);
  for (size_t I = 0; I < P.size(); ++I) {
    EXPECT_TRUE(P[I][0] >= 0 && P[I][0] < 40 && P[I][1] >= 0 && P[I][1] < 30);
    if (I) {
      EXPECT_LT(P[I - 1], P[I]);
    }
  }
  EXPECT_EQ(P, sampleOutputPoints(*K, D, 0, 50, 7));
  EXPECT_EQ(sampleOutputPoints(*K, D, 0, 5000, 7).size(), 1200u);
}

} // namespace
