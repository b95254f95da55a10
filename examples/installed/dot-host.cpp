//===- dot-host.cpp - A kernel compiled at build time, called by name -----===//
//
// dot.h comes from loopy_add_kernels (CMakeLists.txt): loopyc wrote it and
// dot.cu from dot.loop at build time. On a machine with a GPU this runs
// the dot product of 2^20 elements and checks it; without one it says so.
//
//===----------------------------------------------------------------------===//
#include "dot.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("dot-host: no GPU; built only\n");
    return 0;
  }
  const long N = 1 << 20;
  std::vector<float> X(N), Y(N);
  double Expected = 0;
  for (long I = 0; I < N; ++I) {
    X[I] = static_cast<float>(I % 7) - 3;
    Y[I] = static_cast<float>(I % 5) * 0.5f;
    Expected += double(X[I]) * Y[I];
  }
  float *DX, *DY, *DR;
  cudaMalloc(&DX, N * sizeof(float));
  cudaMalloc(&DY, N * sizeof(float));
  cudaMalloc(&DR, sizeof(float));
  cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaError_t E = loopy::kernels::dot(DX, DY, DR);
  float R = NAN;
  if (E == cudaSuccess)
    E = cudaMemcpy(&R, DR, sizeof(float), cudaMemcpyDeviceToHost);
  if (E != cudaSuccess) {
    std::printf("dot-host: %s\n", cudaGetErrorString(E));
    return 1;
  }
  bool Ok = std::fabs(R - Expected) <= 1e-4 * std::fabs(Expected) + 1e-3;
  std::printf("dot-host: %g, expected %g: %s\n", R, Expected,
              Ok ? "OK" : "WRONG");
  return Ok ? 0 : 1;
}
