// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// 'break' ends a loop early, so which iterations run depends on the data.

#pragma loopy kernel
void find(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = x[i];
    break;
  }
}

// CHECK: reject-break.cpp:[[@LINE-4]]:5: error: 'break' cannot be lifted: it ends the loop early, so which iterations run depends on the data
