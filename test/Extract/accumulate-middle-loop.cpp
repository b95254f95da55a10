// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// Matmul in i, k, j order: c[i][j] is updated in the innermost loop, but
// what repeats it is the middle loop over k, whose index it lacks; so the
// sum runs over k.

#pragma loopy kernel
void matmul_ikj(int n, int m, int l, const double *a, const double *b,
                double *__restrict c) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < l; k++)
      for (int j = 0; j < m; j++)
        c[i * m + j] += a[i * l + k] * b[k * m + j];
}

// CHECK-LABEL: kernel matmul_ikj(
// CHECK-SAME:    n, m, l: index; a: in f64[n, l], b: in f64[l, m],
// CHECK-NEXT:    c: inout f64[n, m]) {
// CHECK-NEXT:    domain { [i, k, j] : 0 <= i < n and 0 <= k < l and 0 <= j < m }
// CHECK-NEXT:    c[i, j] = c[i, j] + sum(k, a[i, k] * b[k, j]);
