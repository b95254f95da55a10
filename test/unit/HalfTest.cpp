//===- HalfTest.cpp - f16 and bf16 conversions on the host and devices ----===//
//
// The host's conversions (Support/Half.h) against values whose 16 bits are
// known, and the generated code's conversions (the OpenCL prelude, run on
// PoCL; the CUDA prelude, compiled by NVRTC) against the host's on values
// that exercise every path: ties, subnormals, overflow, infinities, NaN.
//
//===----------------------------------------------------------------------===//
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Runtime/OpenCL.h"
#include "loopy/Support/Half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

using namespace loopy;

namespace {

float bitsToFloat(uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof F);
  return F;
}

/// Values around every boundary of both formats, and a spread of others.
std::vector<float> testValues() {
  std::vector<float> V = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f,
                          65520.0f, -65520.0f, 1e6f, 0x1p-14f, 0x1p-24f,
                          0x1p-25f, 0x1.8p-25f, 0x1p-26f, 0x1.ffcp-15f,
                          1.0f + 0x1p-11f, 1.0f + 0x1.8p-11f, 1.0f + 0x1p-12f,
                          1.0f + 0x1.8p-10f, 1.0f + 0x1p-8f, 1.0f + 0x1.8p-8f,
                          1.0f + 0x1.8p-7f, 0x1.fffffep127f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::denorm_min()};
  uint32_t X = 12345;
  for (int I = 0; I < 4000; ++I) {
    X = X * 1664525u + 1013904223u;
    // Exponents from 2^-30 to 2^20, both signs, any mantissa.
    uint32_t Exp = 97 + (X >> 8) % 50;
    V.push_back(bitsToFloat((X & 0x80000000u) | (Exp << 23) | (X & 0x7fffff)));
  }
  return V;
}

TEST(Half, KnownBits) {
  EXPECT_EQ(floatToF16(1.0f), 0x3c00);
  EXPECT_EQ(floatToF16(-2.0f), 0xc000);
  EXPECT_EQ(floatToF16(65504.0f), 0x7bff);
  EXPECT_EQ(floatToF16(65520.0f), 0x7c00); // the tie rounds to even: up
  EXPECT_EQ(floatToF16(65519.99f), 0x7bff);
  EXPECT_EQ(floatToF16(0x1p-14f), 0x0400); // least normal
  EXPECT_EQ(floatToF16(0x1p-24f), 0x0001); // least subnormal
  EXPECT_EQ(floatToF16(0x1p-25f), 0x0000); // a tie, to even: 0
  EXPECT_EQ(floatToF16(0x1.8p-25f), 0x0001);
  EXPECT_EQ(floatToF16(1.0f + 0x1p-11f), 0x3c00);   // a tie, to even
  EXPECT_EQ(floatToF16(1.0f + 0x1.8p-11f), 0x3c01); // past the tie
  EXPECT_EQ(floatToF16(1.0f + 0x1.8p-10f), 0x3c02); // a tie, to even: up
  EXPECT_EQ(floatToF16(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(floatToF16(std::nanf("")) & 0x7e00, 0x7e00);
  EXPECT_EQ(f16ToFloat(0x3555), 0x1.554p-2f);
  EXPECT_EQ(f16ToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(f16ToFloat(0x83ff), -0x1.ff8p-15f);
  EXPECT_TRUE(std::isnan(f16ToFloat(0x7e01)));

  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);   // a tie, to even
  EXPECT_EQ(floatToBf16(1.0f + 0x1.8p-8f), 0x3f81); // past the tie
  EXPECT_EQ(floatToBf16(1.0f + 0x1.8p-7f), 0x3f82); // a tie, to even: up
  EXPECT_EQ(floatToBf16(0x1.fffffep127f), 0x7f80);  // rounds to infinity
  EXPECT_EQ(floatToBf16(std::nanf("")) & 0x7fc0, 0x7fc0);
  EXPECT_EQ(bf16ToFloat(0xc0a0), -5.0f);
}

TEST(Half, EveryBitPatternRoundTrips) {
  for (uint32_t H = 0; H < 0x10000; ++H) {
    float F = f16ToFloat(static_cast<uint16_t>(H));
    if (std::isnan(F))
      continue;
    EXPECT_EQ(floatToF16(F), H) << "f16 " << std::hex << H;
    float B = bf16ToFloat(static_cast<uint16_t>(H));
    if (!std::isnan(B)) {
      EXPECT_EQ(floatToBf16(B), H) << "bf16 " << std::hex << H;
    }
  }
}

TEST(Half, RoundsToNearest) {
  // No f16 lies closer to a value than the one it rounds to.
  for (float F : testValues()) {
    if (!std::isfinite(F) || std::fabs(F) >= 65504.0f)
      continue;
    uint16_t H = floatToF16(F);
    double Err = std::fabs(double(f16ToFloat(H)) - F);
    for (int D : {-1, 1}) {
      uint16_t N = static_cast<uint16_t>(H + D);
      float G = f16ToFloat(N);
      if (std::isfinite(G) && (N & 0x7fff) <= 0x7bff) {
        EXPECT_LE(Err, std::fabs(double(G) - F)) << F;
      }
    }
  }
}

/// The conversions of the OpenCL prelude, one value per work-item.
const char *ConvertKernel =
    "__kernel void convert(__global const float *in, __global ushort *h,\n"
    "                      __global ushort *b, __global float *rh,\n"
    "                      __global float *rb) {\n"
    "  size_t i = get_global_id(0);\n"
    "  h[i] = loopy_st_f16(in[i]);\n"
    "  b[i] = loopy_st_bf16(in[i]);\n"
    "  rh[i] = loopy_rn_f16(in[i]);\n"
    "  rb[i] = loopy_rn_bf16(in[i]);\n"
    "}\n";

TEST(Half, OpenCLPreludeMatchesTheHost) {
  std::unique_ptr<cl::Device> Dev;
  try {
    Dev = std::make_unique<cl::Device>();
  } catch (cl::OpenCLError &E) {
    GTEST_SKIP() << "no OpenCL CPU device: " << E.what();
  }
  std::vector<float> In = testValues();
  size_t N = In.size();
  cl::Program P = Dev->build(printPrelude(Dialect::OpenCL) + ConvertKernel);
  cl::Buffer BIn = Dev->allocate(N * 4), BH = Dev->allocate(N * 2),
             BB = Dev->allocate(N * 2), BRH = Dev->allocate(N * 4),
             BRB = Dev->allocate(N * 4);
  Dev->write(BIn, In.data(), N * 4);
  size_t Groups[3] = {N, 1, 1}, Local[3] = {1, 1, 1};
  Dev->launch(P, "convert",
              {cl::Arg::buffer(BIn), cl::Arg::buffer(BH), cl::Arg::buffer(BB),
               cl::Arg::buffer(BRH), cl::Arg::buffer(BRB)},
              Groups, Local);
  std::vector<uint16_t> H(N), B(N);
  std::vector<float> RH(N), RB(N);
  Dev->read(BH, H.data(), N * 2);
  Dev->read(BB, B.data(), N * 2);
  Dev->read(BRH, RH.data(), N * 4);
  Dev->read(BRB, RB.data(), N * 4);
  for (size_t I = 0; I < N; ++I) {
    EXPECT_EQ(H[I], floatToF16(In[I])) << In[I];
    EXPECT_EQ(B[I], floatToBf16(In[I])) << In[I];
    if (!std::isnan(In[I])) {
      EXPECT_EQ(RH[I], f16ToFloat(floatToF16(In[I]))) << In[I];
      EXPECT_EQ(RB[I], bf16ToFloat(floatToBf16(In[I]))) << In[I];
    }
  }
}

TEST(Half, CudaPreludeCompiles) {
  std::string Source =
      printPrelude(Dialect::CUDA) +
      "extern \"C\" __global__ void convert(const float *in, loopy_f16 *h,\n"
      "    loopy_bf16 *b, float *r) {\n"
      "  h[threadIdx.x] = loopy_st_f16(in[threadIdx.x]);\n"
      "  b[threadIdx.x] = loopy_st_bf16(in[threadIdx.x]);\n"
      "  r[threadIdx.x] = loopy_rn_f16(in[threadIdx.x]) +\n"
      "                   loopy_rn_bf16(in[threadIdx.x]);\n"
      "}\n";
  Expected<std::string> Ptx = compileVariant(Source, "convert", "sm_90", false);
  ASSERT_TRUE(Ptx) << Ptx.failure().Message;
  EXPECT_NE(Ptx->find("cvt.rn.f16.f32"), std::string::npos);
}

} // namespace
