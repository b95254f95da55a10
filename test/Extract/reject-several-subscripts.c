// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Every subscript that leaves its array is reported in one run, for every
// array: the check of one access does not stop the others.

#pragma loopy kernel
void kernel_edges(int n, double A[n][n], double x[n], double *restrict y,
                  double *restrict z)
{
  int i;
  for (i = 0; i < n; i++) {
    y[i] = A[i][i + 1] + x[i - 1];
    z[i] = x[i + 1];
  }
}
// CHECK: reject-several-subscripts.c:11:12: error: subscript 'i + 1' of 'A' can reach its extent n in dimension 1 (at i = 0 with n = 1)
// CHECK: reject-several-subscripts.c:11:26: error: subscript 'i - 1' of 'x' can be negative (at i = 0 with n = 1)
// CHECK: reject-several-subscripts.c:12:12: error: subscript 'i + 1' of 'x' can reach its extent n in dimension 0 (at i = 0 with n = 1)
// CHECK: 3 errors generated.
