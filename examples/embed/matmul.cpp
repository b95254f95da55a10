//===- matmul.cpp - A matrix product through the loopy API ----------------===//
//
// Run-time code generation from C++: the kernel is text in this program,
// tuned for the GPU it runs on (or taken from the tuning database), then
// launched on device buffers by argument name with typed pointers and
// checked against a plain loop on the CPU.
//
//   embed-matmul [N]     (default 1024; N×N times N×N)
//
//===----------------------------------------------------------------------===//
#include "loopy/loopy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

static const char *MatmulSource = R"(
kernel matmul(n, m, l: index;
              a: in f32[n, l], b: in f32[l, m], c: out f32[n, m]) {
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
  c[i, j] = sum(k, a[i, k] * b[k, j]);
}
)";

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 1024;
  if (N <= 0) {
    std::fprintf(stderr, "usage: embed-matmul [N]\n");
    return 1;
  }
  try {
    loopy::api::Kernel K =
        loopy::api::Source::fromString(MatmulSource, "matmul.loop").kernel();
    K.fix("n", N).fix("m", N).fix("l", N);
    std::vector<loopy::api::VariantInfo> Vs = K.variants();
    std::printf("%zu variants; the planner ranks first %s\n", Vs.size(),
                Vs.front().Schedule.c_str());

    loopy::api::TunedKernel T = K.tune();
    std::printf("tuned%s: %s\n  %.3f ms, %.1f GFLOP/s\n",
                T.fromDatabase() ? " (from the tuning database)" : "",
                T.schedule().c_str(), T.seconds() * 1e3, T.gflops());

    // Inputs in [-1, 1), never all zero.
    std::mt19937 Gen(7);
    std::uniform_real_distribution<float> U(-1, 1);
    std::vector<float> A(N * N), B(N * N), C(N * N, NAN);
    for (float &X : A)
      X = U(Gen);
    for (float &X : B)
      X = U(Gen);
    size_t Bytes = sizeof(float) * N * N;
    loopy::api::DeviceBuffer DA(Bytes), DB(Bytes), DC(Bytes);
    DA.upload(A.data());
    DB.upload(B.data());
    DC.memset(0xff); // NaN everywhere: an element left unwritten shows
    // Typed pointers: an element type other than the kernel's is an error.
    using loopy::api::arg;
    T.launch({arg("a", DA.as<const float>()), arg("b", DB.as<const float>()),
              arg("c", DC.as<float>())});
    DC.download(C.data());

    // The check: every element against a double-precision loop on the CPU.
    double Worst = 0;
    for (long I = 0; I < N; ++I)
      for (long J = 0; J < N; ++J) {
        double S = 0, Norm = 0;
        for (long L = 0; L < N; ++L) {
          S += double(A[I * N + L]) * B[L * N + J];
          Norm += std::fabs(double(A[I * N + L]) * B[L * N + J]);
        }
        double Err = std::fabs(C[I * N + J] - S) / (Norm + 1e-30);
        if (!(Err <= Worst)) // NaN counts as the worst
          Worst = std::isnan(Err) ? INFINITY : Err;
      }
    bool Ok = Worst < 1e-5;
    std::printf("check: %ld elements against the CPU, largest error %.2e of "
                "the terms' magnitude: %s\n",
                N * N, Worst, Ok ? "OK" : "WRONG");
    return Ok ? 0 : 1;
  } catch (loopy::api::Error &E) {
    std::fprintf(stderr, "embed-matmul: %s\n", E.what());
    return 1;
  } catch (std::exception &E) {
    std::fprintf(stderr, "embed-matmul: %s\n", E.what());
    return 1;
  }
}
