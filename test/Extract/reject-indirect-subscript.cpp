// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A subscript read from another array (a gather) is not affine.

#pragma loopy kernel
void gather(int n, const int *idx, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]];
}

// CHECK: reject-indirect-subscript.cpp:[[@LINE-3]]:14: error: subscript 'idx[i]' is not affine in the loop indices and parameters: it reads memory, so it depends on the data (indirect access)
