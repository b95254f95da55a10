// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// C's implicit conversions become .loop casts: an int index used as a
// float, a float promoted to double by a double constant, a comparison
// stored as a number, and '?:' as select. Constants are folded.
#include <cmath>

constexpr int Width = 4;

#pragma loopy kernel
void convert(long n, const float *x, const int *q, double *__restrict d,
             float *__restrict f, int *__restrict k) {
  for (long i = 0; i < n; i++) {
    d[i] = x[i] * 0.5 + q[i];
    f[i] = std::sqrt(x[i]) + (x[i] > 0) + i / (float)Width;
    k[i] = q[i] > 0 ? q[i] * Width : -q[i];
  }
}

// CHECK-LABEL: kernel convert(
// CHECK:         d[i] = f64(x[i]) * 0.5 + f64(q[i]);
// CHECK-NEXT:    f[i] = sqrt(x[i]) + f32(x[i] > 0) + f32(i) / 4;
// CHECK-NEXT:    k[i] = select(q[i] > 0, q[i] * 4, -q[i]);
