// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Subscripts that no shape explains, or that leave a shape the type gives.

#pragma loopy kernel
void mixed_strides(int n, int m, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = a[i * m + j * n];
// CHECK: reject-shapes.cpp:[[@LINE-1]]:22: error: the subscripts of 'a' use the strides 'm' and 'n', which do not nest as the strides of one array; give its shape with '#pragma loopy shape(a, ...)'
}

#pragma loopy kernel
void shifted_rows(int n, const float (*a)[8], float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      y[i * 8 + j] = a[i][j + 1];
// CHECK: reject-shapes.cpp:[[@LINE-1]]:22: error: subscript 'j + 1' of 'a' can reach its extent 8 in dimension 1 (at i = 0, j = 7 with n = 1); make the loop bounds keep it inside, or give the bounds it relies on with '#pragma loopy assume(...)'
}
