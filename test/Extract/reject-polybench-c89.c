// RUN: not %loopy-extract %s 2>&1 | FileCheck %s --implicit-check-not="only the last value would remain"
// Whole functions in PolyBench/C's style whose loops carry real
// dependences: each is rejected for its dependence, named at the access
// and with two iterations that conflict, not for its function-scope
// temporary. Written for this test.

// symm's shape: the update of the rows above row i, through a temporary.
// Its statements split into two kernels, the update of row i first (see
// split-statements.c), but that update adds a sum over k < i, which has
// no term in row 0: a .loop statement writes no element where its
// reduction's range is empty.
#pragma loopy kernel
void symm_full_like(int m, int n, double alpha, double beta,
                    double C[restrict m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double temp2;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
}
// CHECK: reject-polybench-c89.c:[[@LINE-3]]:7: error: 'C[i][j]' is written where the loop over 'k' runs zero times (at i = 0, j = 0 with m = 1, n = 1); the lifted kernel would skip that write: move it into the loop or make the loop run at least once
// CHECK: reject-polybench-c89.c:[[@LINE-8]]:7: note: the loop over 'k' is here

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
// CHECK: 3 errors generated.
