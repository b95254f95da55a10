// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A prefix sum uses the accumulator inside the loop that accumulates it.

#pragma loopy kernel
void scan(int n, const float *x, float *__restrict y) {
  float s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    y[i] = s;
  }
}

// CHECK: reject-prefix-sum.cpp:[[@LINE-4]]:5: error: this uses 's' inside the loop over 'i', which accumulates into it; only its final value, after the loop, can be used
