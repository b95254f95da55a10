// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// An if whose condition reads the data is data-dependent control flow.

#pragma loopy kernel
void relu(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    if (x[i] > 0)
      y[i] = x[i];
  }
}

// CHECK: reject-data-dependent-if.cpp:[[@LINE-5]]:9: error: data-dependent control flow cannot be lifted: the condition reads 'x[i]'; compute both values and pick one with '?:'
