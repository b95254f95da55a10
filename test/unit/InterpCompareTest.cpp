//===- InterpCompareTest.cpp - Host data, test data and output checks -----===//
//
// Layouts and sizes of host buffers, the random and poisoned test data,
// the mask of written elements, and compareOutputs on candidates that are
// right, slightly off by rounding, or wrong in one element.
//
//===----------------------------------------------------------------------===//
#include "loopy/Interp/Compare.h"
#include "loopy/Interp/Fill.h"
#include "loopy/Interp/Interpreter.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

using namespace loopy;


using namespace loopy::interptest;

namespace {

const char *Matvec = R"(
kernel matvec(n, m: index; a: in f32[n, m], x: in f32[m], y: out f32[n]) {
  assume n >= 1;
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = sum(j, a[i, j] * x[j]);
}
)";

/// Reference and candidate outputs of Matvec: the candidate computed by
/// hand with f32 accumulation, as a GPU thread would.
struct MatvecRun {
  std::shared_ptr<const Kernel> K;
  HostData Ref, Cand;
};

MatvecRun runMatvec(long N, long M) {
  MatvecRun R;
  R.K = buildKernel(Matvec);
  R.Ref = randomData(*R.K, {{"n", N}, {"m", M}}, 21);
  R.Cand = R.Ref;
  interpret(*R.K, R.Ref);
  HostArray &Y = R.Cand.array("y");
  const HostArray &A = R.Cand.array("a"), &X = R.Cand.array("x");
  for (long I = 0; I < N; ++I) {
    float S = 0;
    for (long J = 0; J < M; ++J)
      S += float(A.getDouble(A.offset({I, J}))) * float(X.getDouble(J));
    Y.setDouble(I, S);
  }
  return R;
}

TEST(InterpData, ParamsAreCheckedAgainstTheKernel) {
  auto K = buildKernel(Matvec, {{"m", 8}});
  ASSERT_TRUE(K);
  std::string Error;
  EXPECT_FALSE(makeHostData(*K, {{"m", 8}}, Error));
  EXPECT_EQ(Error, "kernel 'matvec' needs a value for parameter 'n'");
  EXPECT_FALSE(makeHostData(*K, {{"n", 0}}, Error));
  EXPECT_EQ(Error, "the parameter values violate the assumptions of kernel "
                   "'matvec'");
  EXPECT_FALSE(makeHostData(*K, {{"n", 4}, {"m", 9}}, Error));
  EXPECT_EQ(Error, "parameter 'm' is given as 9 but the kernel fixes it to 8");
  std::optional<HostData> D = makeHostData(*K, {{"n", 4}}, Error);
  ASSERT_TRUE(D) << Error;
  EXPECT_EQ(D->Params.at("m"), 8);
  EXPECT_EQ(D->array("a").size(), 32u);
  EXPECT_EQ(D->array("a").byteSize(), 128u);
}

TEST(InterpData, RandomInputsAreDeterministicAndNonzero) {
  auto K = buildKernel(R"(
kernel k(n: index; s: i32, x: in f64[n], q: in i64[n], y: out f32[n],
         z: out i32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = f32(x[i]);
  z[i] = i32(q[i]) * s;
}
)");
  ASSERT_TRUE(K);
  HostData A = randomData(*K, {{"n", 500}}, 1);
  HostData B = randomData(*K, {{"n", 500}}, 1);
  HostData C = randomData(*K, {{"n", 500}}, 2);
  int Negative = 0;
  for (size_t I = 0; I < 500; ++I) {
    double X = A.array("x").getDouble(I);
    int64_t Q = A.array("q").getInt(I);
    EXPECT_TRUE(std::fabs(X) >= 0.5 && std::fabs(X) < 1.5) << X;
    EXPECT_TRUE(Q != 0 && std::abs(Q) <= 4) << Q;
    Negative += X < 0;
    EXPECT_EQ(X, B.array("x").getDouble(I));
    EXPECT_TRUE(isPoison(A.array("y"), I));
    EXPECT_TRUE(isPoison(A.array("z"), I));
  }
  EXPECT_TRUE(Negative > 150 && Negative < 350) << Negative;
  EXPECT_NE(A.array("x").getDouble(0), C.array("x").getDouble(0));
  EXPECT_NE(A.Scalars.at("s").Int, 0);
}

TEST(InterpData, LargeArraysAreFilledInRangesWithTheSameValues) {
  // Past 2^22 elements the fill runs in ranges on several threads: every
  // element is still filled (and every output element poisoned), with the
  // value its offset gives in an array filled on one thread.
  auto K = buildKernel(R"(
kernel k(n: index; x: in f32[n], y: out f32[n]) {
  domain { [i] : 0 <= i < n }
  y[i] = 2 * x[i];
}
)");
  ASSERT_TRUE(K);
  const long N = (1L << 22) + 7;
  HostData Large = randomData(*K, {{"n", N}}, 5);
  HostData Small = randomData(*K, {{"n", 1000}}, 5);
  for (size_t I = 0; I < 1000; ++I)
    ASSERT_EQ(Large.array("x").getDouble(I), Small.array("x").getDouble(I));
  size_t Unfilled = 0, Unpoisoned = 0;
  for (size_t I = 0; I < static_cast<size_t>(N); ++I) {
    double X = std::fabs(Large.array("x").getDouble(I));
    Unfilled += !(X >= 0.5 && X < 1.5);
    Unpoisoned += !isPoison(Large.array("y"), I);
  }
  EXPECT_EQ(Unfilled, 0u);
  EXPECT_EQ(Unpoisoned, 0u);
  HostData Again = randomData(*K, {{"n", N}}, 5);
  EXPECT_EQ(std::memcmp(Large.array("x").data(), Again.array("x").data(),
                        Large.array("x").byteSize()),
            0);
}

TEST(InterpData, WrittenMaskIsTheImageOfTheWrites) {
  auto K = buildKernel(R"(
kernel pad(n: index; x: in f32[n], y: out f32[n + 3],
           t: out f32[n, n] strides(1, n + 1)) {
  domain { [i, j] : 0 <= j <= i < n }
  y[i + 1] = x[i];
  y[0] = 0;
  t[i, j] = x[j];
}
)");
  ASSERT_TRUE(K);
  HostData D = randomData(*K, {{"n", 4}}, 3);
  WrittenMask M = writtenMask(*K, D);
  EXPECT_EQ(M.at("y"), (std::vector<bool>{1, 1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(M.count("x"), 0u);
  // Element [i, j] at offset i + 5 j; the lower triangle, no padding.
  std::vector<bool> T(D.array("t").size(), false);
  ASSERT_EQ(T.size(), 19u);
  for (long I = 0; I < 4; ++I)
    for (long J = 0; J <= I; ++J)
      T[I + 5 * J] = true;
  EXPECT_EQ(M.at("t"), T);

  // Writes of every element of a dense array (row- or column-major) mark
  // it whole; a padded layout keeps its padding unmarked, a part of an
  // array only that part.
  auto W = buildKernel(R"(
kernel whole(n: index; x: in f32[n], c: out f32[n, n] strides(1, n),
             p: out f32[n, n] strides(n + 2, 1), e: out f32[n, n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < n }
  c[i, j] = x[j];
  p[i, j] = x[i];
  e[i, 0] = x[i];
}
)");
  ASSERT_TRUE(W);
  HostData E = randomData(*W, {{"n", 4}}, 3);
  WrittenMask MW = writtenMask(*W, E);
  EXPECT_EQ(MW.at("c"), std::vector<bool>(16, true));
  std::vector<bool> P(E.array("p").size(), false), Column(16, false);
  ASSERT_EQ(P.size(), 22u);
  for (long I = 0; I < 4; ++I) {
    Column[4 * I] = true;
    for (long J = 0; J < 4; ++J)
      P[6 * I + J] = true;
  }
  EXPECT_EQ(MW.at("p"), P);
  EXPECT_EQ(MW.at("e"), Column);
}

TEST(InterpCompare, ReferenceAgainstItselfPasses) {
  MatvecRun R = runMatvec(50, 300);
  Comparison C = compareOutputs(*R.K, R.Ref, R.Ref);
  EXPECT_TRUE(C.Ok) << C.message();
  ASSERT_EQ(C.Arrays.size(), 1u);
  EXPECT_EQ(C.Arrays[0].Written, 50u);
  EXPECT_EQ(C.Arrays[0].RelativeL2, 0);
}

TEST(InterpCompare, F32AccumulationIsWithinTolerance) {
  MatvecRun R = runMatvec(64, 4096);
  Comparison C = compareOutputs(*R.K, R.Ref, R.Cand);
  EXPECT_TRUE(C.Ok) << C.message();
  EXPECT_GT(C.Arrays[0].RelativeL2, 0) << "f32 sums differ from double ones";
  EXPECT_DOUBLE_EQ(C.Arrays[0].Tolerance, 16 * 0x1.0p-23 * (1 + 64));
}

TEST(InterpCompare, CatchesOnePerturbedElement) {
  MatvecRun R = runMatvec(2000, 16);
  HostArray &Y = R.Cand.array("y");
  Y.setDouble(1234, Y.getDouble(1234) + 0.01);
  Comparison C = compareOutputs(*R.K, R.Ref, R.Cand);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("array 'y': element y[1234] is "),
            std::string::npos)
      << C.message();
}

TEST(InterpCompare, CatchesANaN) {
  MatvecRun R = runMatvec(20, 16);
  R.Cand.array("y").setDouble(7, NAN);
  Comparison C = compareOutputs(*R.K, R.Ref, R.Cand);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("element y[7] is nan but the reference is"),
            std::string::npos)
      << C.message();
}

TEST(InterpCompare, CatchesAnUnwrittenElement) {
  MatvecRun R = runMatvec(20, 16);
  poisonArray(R.Cand.array("y"));
  for (size_t I = 0; I < 20; ++I)
    if (I != 13)
      R.Cand.array("y").setDouble(I, R.Ref.array("y").getDouble(I));
  Comparison C = compareOutputs(*R.K, R.Ref, R.Cand);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("element y[13] was not written"),
            std::string::npos)
      << C.message();
}

TEST(InterpCompare, SampledPointsCatchBadElementsThere) {
  auto K = buildKernel(R"(
kernel matmul(n, m, l: index;
              a: in f32[n, l], b: in f32[l, m], c: out f32[n, m]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
  c[i, j] = sum(k, a[i, k] * b[k, j]);
}
)");
  ASSERT_TRUE(K);
  HostData Inputs = randomData(*K, {{"n", 60}, {"m", 50}, {"l", 300}}, 6);
  HostData Cand = Inputs;
  interpret(*K, Cand);
  auto Points = sampleOutputPoints(*K, Inputs, 0, 40, 9);
  Points.push_back({60, 0}); // outside: skipped
  ArrayComparison C = comparePoints(*K, Inputs, Cand, 0, Points);
  EXPECT_TRUE(C.Ok) << C.Message;
  EXPECT_EQ(C.Written, 40u);
  EXPECT_DOUBLE_EQ(C.Tolerance, tolerance(DType::F32, 300));

  HostArray &Out = Cand.array("c");
  long Off = Out.offset(Points[17]);
  Out.setDouble(Off, Out.getDouble(Off) + 0.01);
  C = comparePoints(*K, Inputs, Cand, 0, Points);
  EXPECT_FALSE(C.Ok);
  std::string Where = "element for i = " + std::to_string(Points[17][0]) +
                      ", j = " + std::to_string(Points[17][1]) + " is ";
  EXPECT_NE(C.Message.find(Where), std::string::npos) << C.Message;

  Out.setBits(Off, 0x7fc0deadu);
  C = comparePoints(*K, Inputs, Cand, 0, Points);
  EXPECT_NE(C.Message.find("was not written"), std::string::npos) << C.Message;
}

TEST(InterpCompare, IntegersMustMatchExactly) {
  auto K = buildKernel(R"(
kernel isum(n, m: index; a: in i32[n, m], y: out i32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = sum(j, a[i, j]);
}
)");
  ASSERT_TRUE(K);
  HostData Ref = randomData(*K, {{"n", 10}, {"m", 3}}, 4);
  interpret(*K, Ref);
  HostData Cand = Ref;
  EXPECT_TRUE(compareOutputs(*K, Ref, Cand).Ok);
  Cand.array("y").setInt(9, Ref.array("y").getInt(9) + 1);
  Comparison C = compareOutputs(*K, Ref, Cand);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("element y[9] is "), std::string::npos)
      << C.message();
}

TEST(InterpCompare, InoutElementsOutsideTheWritesMustNotChange) {
  auto K = buildKernel(R"(
kernel upd(n: index; x: in f64[n], y: inout f64[n + 1]) {
  domain { [i] : 0 <= i < n }
  y[i] = y[i] + x[i];
}
)");
  ASSERT_TRUE(K);
  HostData Ref = randomData(*K, {{"n", 8}}, 5);
  interpret(*K, Ref);
  HostData Cand = Ref;
  EXPECT_TRUE(compareOutputs(*K, Ref, Cand).Ok);
  Cand.array("y").setDouble(8, 0.25);
  Comparison C = compareOutputs(*K, Ref, Cand);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("element y[8] is not written by the kernel but "
                             "changed"),
            std::string::npos)
      << C.message();
}

TEST(InterpCompare, ToleranceGrowsWithTheReductionLength) {
  EXPECT_EQ(tolerance(DType::I32, 100), 0);
  EXPECT_DOUBLE_EQ(tolerance(DType::F64, 1), 32 * 0x1.0p-52);
  EXPECT_DOUBLE_EQ(tolerance(DType::F32, 99), 16 * 0x1.0p-23 * (1 + std::sqrt(99.0)));
  auto K = buildKernel(R"(
kernel t(n: index; l: in f64[n, n], y: out f64[n]) {
  domain { [i, j] : 0 <= j <= i < n }
  y[i] = sum(j, l[i, j]);
}
)");
  ASSERT_TRUE(K);
  EXPECT_EQ(reductionLength(K->Stmts[0], {{"n", 30}}), 30);
  EXPECT_EQ(reductionLength(K->Stmts[0], {{"n", 0}}), 0);
}

TEST(InterpCompare, Tf32ToleranceCoversRoundedOperands) {
  // Products of operands rounded to 11 significant bits: f32 outputs get
  // twice 2^-11 more; other types are not affected.
  EXPECT_DOUBLE_EQ(tolerance(DType::F32, 99, true),
                   0x1.0p-10 + tolerance(DType::F32, 99));
  EXPECT_DOUBLE_EQ(tolerance(DType::F64, 99, true), tolerance(DType::F64, 99));
  EXPECT_DOUBLE_EQ(tolerance(DType::BF16, 99, true),
                   tolerance(DType::BF16, 99));
  // A sum of products whose operands were rounded to tf32 passes with the
  // option and fails without it.
  auto K = buildKernel(R"(
kernel d(m, n: index; a: in f32[m, n], b: in f32[n], y: out f32[m]) {
  domain { [i, k] : 0 <= i < m and 0 <= k < n }
  y[i] = sum(k, a[i, k] * b[k]);
}
)");
  ASSERT_TRUE(K);
  HostData Ref = randomData(*K, {{"m", 32}, {"n", 64}}, 1);
  auto Tf32 = [](float X) {
    uint32_t U;
    std::memcpy(&U, &X, 4);
    U = (U + 0x1000u) & 0xffffe000u;
    std::memcpy(&X, &U, 4);
    return X;
  };
  HostData Rounded = Ref;
  for (auto [Name, Size] : {std::pair{"a", 32 * 64}, std::pair{"b", 64}})
    for (long I = 0; I < Size; ++I)
      Rounded.array(Name).setDouble(I, Tf32(Ref.array(Name).getDouble(I)));
  interpret(*K, Ref);
  interpret(*K, Rounded);
  CompareOptions Opts;
  Opts.Tf32 = true;
  EXPECT_TRUE(compareOutputs(*K, Ref, Rounded, Opts).Ok);
  EXPECT_FALSE(compareOutputs(*K, Ref, Rounded).Ok);
}

} // namespace
