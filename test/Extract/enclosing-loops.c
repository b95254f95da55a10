// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// A nest marked inside other loops assumes the ranges of the indices it
// uses, as isl finds them from every enclosing loop header: through outer
// indices that the nest does not use, with '!=', '&&', affine comparisons
// and loops that count down.

void through_outer(int n, double A[restrict n][n])
{
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
#pragma loopy kernel(through_outer)
      for (k = 0; k < n; k++)
        A[j][k] = A[j][k] * 2.0;
    }
}
// CHECK-LABEL: kernel through_outer(n, j: index; A: inout f64[n, n]) {
// CHECK-NEXT:    assume 0 <= j <= -2 + n;

void not_equal(int n, double A[restrict n][n])
{
  int i, k;
  for (i = 0; i != n; i++) {
#pragma loopy kernel(not_equal)
    for (k = 0; k < n; k++)
      A[i][k] = A[i][k] * 2.0;
  }
}
// CHECK-LABEL: kernel not_equal(n, i: index; A: inout f64[n, n]) {
// CHECK-NEXT:    assume 0 <= i < n;

void count_down(int n, double A[restrict n][n])
{
  int i, k;
  for (i = n - 1; i >= 0; i--) {
#pragma loopy kernel(count_down)
    for (k = 0; k < n; k++)
      A[i][k] = A[i][k] * 2.0;
  }
}
// CHECK-LABEL: kernel count_down(n, i: index; A: inout f64[n, n]) {
// CHECK-NEXT:    assume 0 <= i < n;

void conjunction(int n, int m, double A[restrict n][n])
{
  int i, k;
  for (i = 0; i + 1 < n && i < m; i = i + 1) {
#pragma loopy kernel(conjunction)
    for (k = 0; k < n; k++)
      A[i][k] = A[i][k] * 2.0;
  }
}
// CHECK-LABEL: kernel conjunction(n, i: index; A: inout f64[n, n]) {
// CHECK-NEXT:    assume 0 <= i <= -2 + n;
