//===- ApiTest.cpp - The embedding API without a GPU ----------------------===//
#include "loopy/loopy.h"

#include <gtest/gtest.h>

namespace {

const char *Matvec = R"(
kernel matvec(n, m: index;
              a: in f32[n, m], x: in f32[m], y: out f32[n]) {
  domain { [i, j] : 0 <= i < n and 0 <= j < m }
  y[i] = sum(j, a[i, j] * x[j]);
}
)";

TEST(Api, ParseErrorsReadLikeDiagnostics) {
  try {
    loopy::api::Source::fromString("kernel k(", "bad.loop");
    FAIL() << "no error";
  } catch (loopy::api::Error &E) {
    EXPECT_NE(std::string(E.what()).find("bad.loop:1:"), std::string::npos)
        << E.what();
  }
}

TEST(Api, ErrorsCarryTheFirstErrorsLocation) {
  try {
    loopy::api::Source::fromString("kernel k(n: index; a: out f32[n]) {\n"
                                   "  domain { [i] : 0 <= i < n }\n"
                                   "  a[i] = b[i];\n}\n",
                                   "dir:with:colons/k.loop");
    FAIL() << "no error";
  } catch (loopy::api::Error &E) {
    EXPECT_EQ(E.file(), "dir:with:colons/k.loop");
    EXPECT_EQ(E.line(), 3u);
    EXPECT_EQ(E.column(), 10u);
    EXPECT_EQ(E.message(), "use of undeclared array 'b'; did you mean 'a'?");
  }
  // An error that concerns no source text: no location, the message whole.
  loopy::api::Error E("kernel 'k' has no index parameter 'q'");
  EXPECT_EQ(E.file(), "");
  EXPECT_EQ(E.line(), 0u);
  EXPECT_EQ(E.message(), "kernel 'k' has no index parameter 'q'");
  EXPECT_EQ(loopy::api::Error("error: cannot open 'x'").message(),
            "cannot open 'x'");
}

TEST(Api, ArgumentShapesAtTheSizesKnown) {
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  K.fix("n", 64);
  std::vector<loopy::api::ArgumentInfo> As = K.arguments();
  ASSERT_EQ(As.size(), 5u);
  EXPECT_EQ(As[0].ArgKind, loopy::api::ArgumentInfo::Kind::Index);
  loopy::api::ArgumentInfo A = As[2];
  EXPECT_EQ(A.Name, "a");
  EXPECT_EQ(A.DType, "f32");
  EXPECT_EQ(A.ElementBytes, 4u);
  EXPECT_EQ(A.Mode, "in");
  // m has no value: its extent, the strides and the size are unknown.
  EXPECT_EQ(A.Shape, (std::vector<long>{64, -1}));
  EXPECT_EQ(A.Strides, (std::vector<long>{-1, -1}));
  EXPECT_EQ(A.Elements, -1);
  K.set("m", 32);
  A = K.arguments()[2];
  EXPECT_EQ(A.Shape, (std::vector<long>{64, 32}));
  EXPECT_EQ(A.Strides, (std::vector<long>{32, 1}));
  EXPECT_EQ(A.Elements, 64 * 32);
  EXPECT_EQ(K.arguments()[4].Mode, "out");
}

TEST(Api, CompileNeedsNoGpu) {
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  K.fix("n", 256).fix("m", 256);
  std::vector<loopy::api::VariantInfo> Vs = K.variants();
  ASSERT_GE(Vs.size(), 2u);
  loopy::api::CompiledVariant Ptx = K.compile(Vs[1].Schedule, "sm_90", true);
  EXPECT_EQ(Ptx.Schedule, Vs[1].Schedule);
  EXPECT_EQ(Ptx.Arch, "sm_90");
  EXPECT_NE(Ptx.Cuda.find("// schedule: " + Vs[1].Schedule + "\n"),
            std::string::npos);
  EXPECT_NE(Ptx.Binary.find(".entry matvec"), std::string::npos);
  EXPECT_NE(Ptx.Binary.find(".target sm_90"), std::string::npos);
  loopy::api::CompiledVariant Cubin = K.compile("", "sm_90");
  EXPECT_EQ(Cubin.Schedule, Vs[0].Schedule);
  EXPECT_EQ(Cubin.Binary.compare(0, 4,
                                 "\x7f"
                                 "ELF"),
            0);
}

TEST(Api, SizesFromShapes) {
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  std::map<std::string, long> Sizes =
      K.sizesFromShapes({{"a", {300, 200}}, {"x", {200}}});
  EXPECT_EQ(Sizes, (std::map<std::string, long>{{"n", 300}, {"m", 200}}));
  // A fixed size is left out; arrays that disagree are an error.
  K.fix("n", 300);
  EXPECT_EQ(K.sizesFromShapes({{"a", {300, 200}}}),
            (std::map<std::string, long>{{"m", 200}}));
  try {
    K.sizesFromShapes({{"a", {300, 200}}, {"x", {100}}});
    FAIL() << "no error";
  } catch (loopy::api::Error &E) {
    EXPECT_EQ(E.message(), "size 'm' of kernel 'matvec' is 200 by 'a''s "
                           "dimension 1 but 100 by 'x''s dimension 0");
  }
  EXPECT_THROW(K.sizesFromShapes({{"a", {300}}}), loopy::api::Error);
  EXPECT_THROW(K.sizesFromShapes({{"n", {300}}}), loopy::api::Error);
}

TEST(Api, TypedArguments) {
  float *F = nullptr;
  const double *D = nullptr;
  EXPECT_EQ(loopy::api::arg("a", F).DType, "f32");
  EXPECT_EQ(loopy::api::arg("b", D).DType, "f64");
  EXPECT_EQ(loopy::api::arg("c", static_cast<std::int64_t *>(nullptr)).DType,
            "i64");
  EXPECT_EQ(loopy::api::arg("c", F).Name, "c");
  EXPECT_EQ(loopy::api::arg("h", static_cast<loopy::api::Float16 *>(nullptr))
                .DType,
            "f16");
  EXPECT_EQ(
      loopy::api::arg("h", static_cast<const loopy::api::BFloat16 *>(nullptr))
          .DType,
      "bf16");
  static_assert(sizeof(loopy::api::Float16) == 2 &&
                sizeof(loopy::api::BFloat16) == 2);
  auto K = loopy::api::Source::fromString(
               "kernel h(n: index; a: bf16; x: in f16[n], y: out bf16[n]) {\n"
               "  domain { [i] : 0 <= i < n }\n"
               "  y[i] = a * bf16(x[i]);\n"
               "}\n")
               .kernel();
  std::vector<loopy::api::ArgumentInfo> Args = K.arguments();
  ASSERT_EQ(Args.size(), 4u);
  EXPECT_EQ(Args[1].DType, "bf16");
  EXPECT_EQ(Args[2].DType, "f16");
  EXPECT_EQ(Args[2].ElementBytes, 2u);
}

TEST(Api, NarrowIntegerArguments) {
  EXPECT_EQ(loopy::api::arg("a", static_cast<std::int8_t *>(nullptr)).DType,
            "i8");
  EXPECT_EQ(
      loopy::api::arg("a", static_cast<const std::uint8_t *>(nullptr)).DType,
      "u8");
  EXPECT_EQ(loopy::api::arg("a", static_cast<std::int16_t *>(nullptr)).DType,
            "i16");
  EXPECT_EQ(loopy::api::arg("a", static_cast<std::uint16_t *>(nullptr)).DType,
            "u16");
  auto K = loopy::api::Source::fromString(
               "kernel b(n: index; s: i8; x: in u8[n], y: out u16[n]) {\n"
               "  domain { [i] : 0 <= i < n }\n"
               "  y[i] = u16(x[i]) * u16(s);\n"
               "}\n")
               .kernel();
  std::vector<loopy::api::ArgumentInfo> Args = K.arguments();
  ASSERT_EQ(Args.size(), 4u);
  EXPECT_EQ(Args[1].DType, "i8");
  EXPECT_EQ(Args[1].ElementBytes, 1u);
  EXPECT_EQ(Args[2].DType, "u8");
  EXPECT_EQ(Args[3].DType, "u16");
  EXPECT_EQ(Args[3].ElementBytes, 2u);
}

TEST(Api, TemporariesAreNoArguments) {
  // The temporary of a split reduction is allocated by the launch, not
  // passed by the caller: arguments() leaves it out.
  auto K = loopy::api::Source::fromString(
               "kernel s(n, m: index; x: in f32[n, m], y: out f32[n]) {\n"
               "  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < m }\n"
               "  y[i] = sum(j, exp(x[i, j] - max(k, x[i, k])));\n"
               "}\n")
               .kernel();
  std::vector<loopy::api::ArgumentInfo> Args = K.arguments();
  ASSERT_EQ(Args.size(), 4u);
  EXPECT_EQ(Args[3].Name, "y");
  EXPECT_NE(K.cuda().find("tmp_S0_0"), std::string::npos);
}

TEST(Api, SizedKernelTunesOnFirstUse) {
  // Without a GPU the first use at a size says so, and nothing is kept.
  loopy::api::SizedKernel S(loopy::api::Source::fromString(Matvec).kernel());
  EXPECT_EQ(S.size(), 0u);
  try {
    S.at({{"n", 64}, {"m", 64}});
  } catch (loopy::api::Error &E) {
    EXPECT_NE(E.message().find("GPU"), std::string::npos) << E.what();
    EXPECT_EQ(S.size(), 0u);
    return;
  }
  EXPECT_EQ(S.size(), 1u);
}

TEST(Api, ParametersAndTheirChecks) {
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  EXPECT_EQ(K.name(), "matvec");
  std::vector<std::string> Ps = K.parameters();
  EXPECT_EQ(Ps.size(), 2u);
  EXPECT_THROW(K.fix("q", 4), loopy::api::Error);
  EXPECT_THROW(K.set("q", 4), loopy::api::Error);
  EXPECT_THROW(loopy::api::Source::fromString(Matvec).kernel("other"),
               loopy::api::Error);
}

TEST(Api, FixedValuesBecomeConstants) {
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  K.fix("n", 64).set("m", 64);
  std::string Cuda = K.cuda();
  EXPECT_NE(Cuda.find("const idx n = 64;"), std::string::npos);
  EXPECT_EQ(Cuda.find("const idx m = 64;"), std::string::npos);
  // A value set after a fix moves the parameter back to the arguments.
  K.set("n", 64);
  EXPECT_EQ(K.cuda().find("const idx n = 64;"), std::string::npos);
  std::vector<loopy::api::VariantInfo> Vs = K.variants();
  ASSERT_GE(Vs.size(), 2u);
  EXPECT_NE(K.cuda(Vs[1].Schedule).find("// schedule: " + Vs[1].Schedule + "\n"),
            std::string::npos);
}

TEST(Api, PlannerOptionsReachEveryVariant) {
  // The planner's options (loopyc's --max-shared, --min-threads) bound the
  // variants listed and emitted.
  auto K = loopy::api::Source::fromString(Matvec).kernel();
  K.fix("n", 4096).fix("m", 4096);
  std::vector<loopy::api::VariantInfo> Default = K.variants();
  loopy::PlannerOptions Opts;
  Opts.MaxSharedBytes = 1024;
  Opts.MinThreads = 128;
  K.planner(Opts);
  EXPECT_EQ(K.plannerOptions().MinThreads, 128);
  std::vector<loopy::api::VariantInfo> Bounded = K.variants();
  ASSERT_FALSE(Bounded.empty());
  EXPECT_LT(Bounded.size(), Default.size());
  for (const loopy::api::VariantInfo &V : Bounded) {
    EXPECT_LE(V.SharedBytes, 1024) << V.Schedule;
    EXPECT_GE(V.Threads, 128) << V.Schedule;
  }
  EXPECT_NE(K.cuda().find("// schedule: " + Bounded[0].Schedule + "\n"),
            std::string::npos);
  // A copy keeps them.
  loopy::api::Kernel Copy = K;
  EXPECT_EQ(Copy.variants().size(), Bounded.size());
}

} // namespace
