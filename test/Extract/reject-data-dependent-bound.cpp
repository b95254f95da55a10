// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A bound read from memory makes the trip count depend on the data.

#pragma loopy kernel
void ragged(int n, const int *len, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < len[i]; j++)
      s += x[j];
    y[i] = s;
  }
}

// CHECK: reject-data-dependent-bound.cpp:[[@LINE-6]]:25: error: loop bound 'len[i]' is not affine in the loop indices and parameters: it reads memory, so it depends on the data (indirect access)
