// RUN: not %loopy-extract %s 2>&1 | FileCheck %s --implicit-check-not="only the last value would remain"
// Whole functions in PolyBench/C's style whose loops carry real
// dependences: each is rejected for its dependence, named at the access
// and with two iterations that conflict, not for its function-scope
// temporary; where something else stands in the way too (a local array,
// an 'if' on the indices), the dependence is reported first. Written for
// this test.

// An LU-like update of the lower triangle through a temporary.
#pragma loopy kernel
void lu_lower_like(int n, double A[restrict n][n])
{
  int i, j, k;
  double w;
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
}
// CHECK: reject-polybench-c89.c:[[@LINE-4]]:14: error: 'A[i][k]' reads 'A' at another element than 'A[i][j]', which the loop nest also writes, so its iterations depend on each other: the iteration (i = 3, k = 1) reads the element that the iteration (i = 3, j = 1) writes when n = 4; write the results to a separate array

// A seidel-like in-place stencil under a time loop, which stays on the
// host: the dependence is in the nest.
#pragma loopy kernel
void seidel_like(int tsteps, int n, double A[restrict n][n])
{
  int t, i, j;
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.25 * (A[i - 1][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j]);
}
// CHECK: reject-polybench-c89.c:[[@LINE-2]]:27: error: 'A[i - 1][j]' reads 'A' at another element than 'A[i][j]', which the loop nest also writes, so its iterations depend on each other: the iteration (i = 2, j = 1) reads the element that the iteration (i = 1, j = 1) writes when n = 4;

// durbin's shape: a recurrence whose every step reads the coefficients of
// the step before, through a local array. The loop over k carries the
// dependence; the local array is reported after it, once, though each of
// the three parts of the body meets it.
#pragma loopy kernel
void durbin_like(int n, double r[n], double y[restrict n])
{
  double z[64];
  double alpha, beta, sum;
  int i, k;
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
}
// CHECK: reject-polybench-c89.c:56:5: error: this uses 'beta' inside the loop over 'k', which accumulates into it
// CHECK: reject-polybench-c89.c:52:5: error: this uses 'alpha' inside the loop over 'k', which accumulates into it
// CHECK: reject-polybench-c89.c:45:3: error: local array 'z' cannot be lifted
// CHECK-NOT: local array 'z'

// nussinov's shape: a dynamic program over a triangle, each element the
// best of its neighbours, with 'if's on the indices for the borders.
#pragma loopy kernel
void nussinov_like(int n, int table[restrict n][n])
{
  int i, j, k;
  for (i = n - 1; i >= 0; i--)
    for (j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i][j] = table[i][j] > table[i][j - 1] ? table[i][j] : table[i][j - 1];
      for (k = i + 1; k < j; k++)
        table[i][j] = table[i][j] > table[i][k] + table[k + 1][j]
                          ? table[i][j] : table[i][k] + table[k + 1][j];
    }
}
// CHECK: reject-polybench-c89.c:81:43: error: 'table[i][k]' reads 'table' at another element than 'table[i][j]', which the loop nest also writes, so its iterations depend on each other
// CHECK: reject-polybench-c89.c:77:11: error: an 'if' on loop indices cannot be lifted

// deriche's shape: coefficients set once by chains of assignments, then
// a recursive filter along each row, its state in scalars carried from
// one column to the next.
#pragma loopy kernel
void deriche_like(int w, int h, double alpha, double img[w][h],
                  double y1[restrict w][h])
{
  double k, a1, a2, a5, a6, b1, ym1, xm1;
  int i, j;
  k = 1.0 - alpha;
  a1 = a5 = k;
  a2 = a6 = k * alpha;
  b1 = 2.0 * alpha;
  for (i = 0; i < w; i++) {
    ym1 = 0.0;
    xm1 = 0.0;
    for (j = 0; j < h; j++) {
      y1[i][j] = a1 * img[i][j] + a2 * xm1 + b1 * ym1;
      xm1 = img[i][j];
      ym1 = y1[i][j];
    }
  }
}
// CHECK: reject-polybench-c89.c:106:7: error: this reads 'xm1' before the iteration of the loop over 'j' sets it, so it reads the value that the previous iteration left
// CHECK-NOT: assignment inside an expression
// CHECK: 11 errors generated.
