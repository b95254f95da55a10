// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// A row maximum: -INFINITY, the identity of max, starts the accumulation
// and disappears from the lifted reduction.
#include <math.h>

#pragma loopy kernel
void row_max(int n, int m, const float *a, float *__restrict r) {
  for (int i = 0; i < n; i++) {
    float best = -INFINITY;
    for (int j = 0; j < m; j++)
      best = fmaxf(best, a[i * m + j]);
    r[i] = best;
  }
}

// CHECK-LABEL: kernel row_max(n, m: index; a: in f32[n, m], r: out f32[n]) {
// CHECK-NEXT:    assume m > 0;
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    r[i] = max(j, a[i, j]);
// CHECK-NEXT:  }
