// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// An element assigned in every iteration of a loop whose index it does not
// use keeps only the last value, which is not a reduction.

#pragma loopy kernel
void last(int n, int m, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i] = a[i * m + j];
}

// CHECK: reject-overwrite.cpp:[[@LINE-3]]:7: error: 'y[i]' is assigned in every iteration of the loop over 'j' but not accumulated, so only the last value would remain; accumulate with '+=', '-=', '*=', max or min, or index it with 'j'
