// RUN: not %loopyc %s 2>&1 | FileCheck %s
// loopyc passes the extractor's diagnostics through and fails with it.

#pragma loopy kernel
void gather(int n, const int *idx, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]];
// CHECK: loopyc-cpp-error.cpp:[[@LINE-1]]:14: error: subscript 'idx[i]' is not affine
}
// CHECK-NOT: loopyc: error
