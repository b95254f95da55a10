// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// Loop headers: <= and an index on the right of the comparison, std::max
// and std::min in bounds (a band), a step of 2 counting down, and an
// affine comparison that is not yet solved for the index.
#include <algorithm>

#pragma loopy kernel
void band(int n, const float *x, float *__restrict y) {
  for (int i = 0; n > i; i++) {
    float acc = 0;
    for (int j = std::max(0, i - 2); j <= std::min(n - 1, i + 2); j++)
      acc += x[j];
    y[i] = acc;
  }
}

// CHECK-LABEL: kernel band(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j and i - 2 <= j and j <= n - 1 and j <= i + 2 }
// CHECK-NEXT:    y[i] = sum(j, x[j]);

#pragma loopy kernel
void odd_down(int n, const int *x, int *__restrict y) {
  for (int i = n - 1; i >= 0; i -= 2)
    y[i] = x[i];
}

// CHECK-LABEL: kernel odd_down(
// CHECK:         domain { [i] : 0 <= i <= n - 1 and (i - n + 1) mod 2 = 0 }

#pragma loopy kernel
void shifted(int n, const double *x, double *__restrict y) {
  for (int i = 0; i + 1 < n; i = i + 1)
    y[i] = x[i + 1] - x[i];
}

// CHECK-LABEL: kernel shifted(
// CHECK:         domain { [i] : 0 <= i < n - 1 }
// CHECK-NEXT:    y[i] = x[i + 1] - x[i];
