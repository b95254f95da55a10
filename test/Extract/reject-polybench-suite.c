// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Kernels in the style of PolyBench/C whose loops carry true
// dependences, written for this test: each is rejected, naming the
// dependence with two iterations that conflict.

#pragma loopy kernel
void lu(int n, double A[restrict n][n])
{
  int i, j, k;
  for (k = 0; k < n; k++) {
    for (j = k + 1; j < n; j++)
      A[k][j] = A[k][j] / A[k][k];
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }
}
// CHECK: reject-polybench-suite.c:12:27: error: 'A[k][k]' reads 'A' at another element than 'A[k][j]', which the loop nest also writes; its iterations would depend on each other
// CHECK: reject-polybench-suite.c:15:29: error: 'A[i][k]' reads 'A' at another element than 'A[i][j]', which the loop nest also writes, so its iterations depend on each other: the iteration (k = 1, i = 2) reads the element that the iteration (i = 2, j = 1) writes when n = 3

#pragma loopy kernel
void seidel_2d(int tsteps, int n, double A[restrict n][n])
{
  int t, i, j;
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
}
// CHECK: reject-polybench-suite.c:28:20: error: 'A[i - 1][j - 1]' reads 'A' at another element than 'A[i][j]', which the loop nest also writes, so its iterations depend on each other: the iteration (i = 2, j = 2) reads the element that the iteration (i = 1, j = 1) writes when n = 4

// A sweep whose loop body holds two loops: the first part
// reads, in iteration i, what the second part writes in iteration i - 1.
#pragma loopy kernel
void sweep(int n, double x[restrict n], double y[restrict n], double b[n])
{
  int i, j;
  for (i = 1; i < n - 1; i++) {
    for (j = 0; j < 1; j++)
      x[i] = b[i] + y[i - 1];
    for (j = 0; j < 1; j++)
      y[i] = 0.5 * x[i];
  }
}
// CHECK: reject-polybench-suite.c:42:21: error: 'y[i - 1]' reads 'y' at the element that 'y[i]' writes in an earlier iteration of the loops over 'i'

// A row of temporaries rewritten in every iteration of the loop over 'i'
// keeps that loop on the host, but the loop also carries a true
// dependence: the first part reads, in iteration i, what the second
// wrote in iteration i - 1.
#pragma loopy kernel
void rows_carried(int n, int m, double x[n][m], double z[restrict n][m],
                  double tmp[restrict m])
{
  int i, p;
  for (i = 1; i < n; i++) {
    for (p = 0; p < m; p++)
      tmp[p] = x[i][p] + z[i - 1][p];
    for (p = 0; p < m; p++)
      z[i][p] = 0.5 * tmp[p];
  }
}
// CHECK: reject-polybench-suite.c:[[#@LINE-5]]:26: error: 'z[i - 1][p]' reads 'z' at the element that 'z[i][p]' writes in an earlier iteration of the loops over 'i': the iteration (i = 2) reads what the iteration (i = 1) writes when m = 1, n = 3; these loops carry the dependence, and their body overwrites an element in each of their iterations, so they can be neither kernel loops nor split into one kernel per part
// CHECK: reject-polybench-suite.c:[[#@LINE-4]]:7: note: 'z[i][p]' is here

/* symm's shape with the diagonal in the loop over k: the update of row i
   reads C[i][j] after the iteration (i, j, k = i) added to it, and the
   later rows add to C[i][j] after the update: the two statements depend
   on each other both ways, so no order of two kernels is right. */
#pragma loopy kernel
void symm_diagonal(int m, int n, double alpha, double beta,
                   double C[restrict m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double s;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      s = 0.0;
      for (k = 0; k <= i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        s += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * s;
    }
}
// CHECK: reject-polybench-suite.c:[[@LINE-6]]:9: error: 'C[k][j]' writes 'C' in the iteration (i = 1, j = 0, k = 0), after 'C[i][j]' writes that element in the iteration (i = 0, j = 0) when m = 2, n = 1, but the statement of 'C[i][j]' also depends on the one of 'C[k][j]'; the statements depend on each other both ways, so the loops over 'i', 'j' cannot be split into one kernel per statement in any order
// CHECK: reject-polybench-suite.c:[[@LINE-4]]:7: note: 'C[i][j]' writes 'C' in the iteration (i = 0, j = 0), after 'C[k][j]' writes that element in the iteration (i = 0, j = 0, k = 0) when m = 1, n = 1
// CHECK: 6 errors generated.
