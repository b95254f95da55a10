// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Row 0 of these lower triangles has no terms. Where C leaves in the
// accumulator a value that .loop can write, those rows become a kernel of
// their own (empty-loop.c); here it cannot: the maximum starts at minus
// infinity, and the rows where the loop over j is empty, i = 0 or p <= 0,
// are no box of loop bounds.
#include <cmath>

#pragma loopy kernel
void strict_lower_max(int n, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = -INFINITY;
    for (int j = 0; j < i; j++)
      y[i] = std::fmax(y[i], a[i * n + j]);
  }
}
// CHECK: reject-empty-loop.cpp:[[@LINE-5]]:5: error: 'y[i]' is written where the loop over 'j' runs zero times (at i = 0 with n = 1); the lifted kernel would skip that write: move it into the loop or make the loop run at least once
// CHECK: reject-empty-loop.cpp:[[@LINE-5]]:5: note: the loop over 'j' is here

#pragma loopy kernel
void lower_prods(int n, int p, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 1.0f;
    for (int j = 0; j < i && j < p; j++)
      y[i] *= a[i * p + j];
  }
}
// CHECK: reject-empty-loop.cpp:[[@LINE-5]]:5: error: 'y[i]' is written where the loop over 'j' runs zero times (at i = 0 with n = 1, p = 0)
// CHECK: 2 errors generated.
