// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// The ways C accumulates that lift to reductions: an if that keeps the
// smaller value, a conditional operator and std::max, -= and *=.
#include <algorithm>

#pragma loopy kernel
void row_min(int n, int m, const float *a, float *__restrict r) {
  for (int i = 0; i < n; i++) {
    float best = a[i * m];
    for (int j = 1; j < m; j++)
      if (a[i * m + j] < best)
        best = a[i * m + j];
    r[i] = best;
  }
}

// The start value a[i, 0] stays outside the reduction over j = 1 .. m - 1.
// CHECK-LABEL: kernel row_min(
// CHECK:         assume m >= 2;
// CHECK:         r[i] = min(a[i, 0], min(j, a[i, j]));

#pragma loopy kernel
void col_max(int n, int m, const double *a, double *__restrict r) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      r[j] = r[j] > a[i * m + j] ? r[j] : a[i * m + j];
}

// CHECK-LABEL: kernel col_max(
// CHECK:         r[j] = max(r[j], max(i, a[i, j]));

#pragma loopy kernel
void clamp_sum(int n, int m, const float *a, float *__restrict r) {
  for (int i = 0; i < n; i++) {
    float s = 100;
    for (int j = 0; j < m; j++)
      s -= std::max(a[i * m + j], 0.0f);
    r[i] = s;
  }
}

// CHECK-LABEL: kernel clamp_sum(
// CHECK:         r[i] = 100 - sum(j, max(a[i, j], 0));

#pragma loopy kernel
void row_prod(int n, int m, const double *a, double *__restrict r) {
  for (int i = 0; i < n; i++) {
    r[i] = 1;
    for (int j = 0; j < m; j++)
      r[i] *= a[i * m + j];
  }
}

// CHECK-LABEL: kernel row_prod(
// CHECK:         r[i] = prod(j, a[i, j]);
