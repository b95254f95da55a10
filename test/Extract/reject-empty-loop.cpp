// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Row 0 of this strictly lower triangle has no terms: C stores 0 there, but
// a lifted statement runs only where the loop over j runs.

#pragma loopy kernel
void strict_lower(int n, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    for (int j = 0; j < i; j++)
      y[i] += a[i * n + j];
  }
}

// CHECK: reject-empty-loop.cpp:[[@LINE-6]]:5: error: 'y[i]' is written where the loop over 'j' runs zero times (at i = 0 with n = 1); the lifted kernel would skip that write: move it into the loop or make the loop run at least once
// CHECK: reject-empty-loop.cpp:[[@LINE-6]]:5: note: the loop over 'j' is here
