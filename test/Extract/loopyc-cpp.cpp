// RUN: %loopyc %s --emit=cuda | FileCheck %s
// RUN: %loopyc %s --emit=ir | FileCheck --check-prefix=IR %s
// loopyc lifts a C++ file through loopy-extract and compiles every kernel
// in it.

#pragma loopy kernel
void scale(int n, float alpha, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i];
}

#pragma loopy kernel
void row_sums(int n, int m, const float *a, float *__restrict s) {
  for (int i = 0; i < n; i++) {
    float acc = 0;
    for (int j = 0; j < m; j++)
      acc += a[i * m + j];
    s[i] = acc;
  }
}

// CHECK: extern "C" __global__ void scale(
// CHECK: extern "C" __global__ void row_sums(

// IR-LABEL: kernel scale
// IR:         statement S0: y[i] = alpha * x[i]
// IR-LABEL: kernel row_sums
// IR:         context: [n, m] -> {  : m > 0 }
// IR:         statement S0: s[i] = sum(j, a[i, j])
