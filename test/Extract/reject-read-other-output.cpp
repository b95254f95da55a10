// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// The first statement reads y before the second overwrites it; lifted
// statements are independent and cannot read each other's results. They
// share the temporary t, so they cannot be split into one kernel each
// either (split-statements.c splits them where they do not).

#pragma loopy kernel
void swap_in(int n, float *__restrict y, float *__restrict z) {
  float t;
  for (int i = 0; i < n; i++) {
    t = y[i];
    z[i] = y[i] + t;
    y[i] = t + 1;
  }
}

// CHECK: reject-read-other-output.cpp:[[@LINE-5]]:12: error: 'y[i]' reads 'y', which another statement of the loop nest writes; a lifted statement cannot read what another one writes: split the nest into two kernels
