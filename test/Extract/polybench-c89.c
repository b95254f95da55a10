// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// RUN: %loopy-extract %s --kernel=symm_like | %loopyc - --check=opencl --sample=1 --all-params 23 | FileCheck --check-prefix=OCL %s
// RUN: %loopy-extract %s --kernel=jacobi_2d_like_1 | %loopyc - --check=opencl --sample=1 --all-params 21 | FileCheck --check-prefix=OCL %s
// Whole functions written as PolyBench/C writes them, each marked with
// nothing but '#pragma loopy kernel': indices and temporaries declared at
// the top, loops that assign the indices, scalar temporaries that each
// iteration sets before it reads them, and a time loop around two nests.
// Written for this test.

#pragma loopy kernel
void gemm_like(int ni, int nj, int nk, double alpha, double beta,
               double C[restrict ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      C[i][j] *= beta;
      for (k = 0; k < nk; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
}
// CHECK-LABEL: kernel gemm_like(ni, nj, nk: index; alpha: f64, beta: f64,
// CHECK:         domain { [i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }
// CHECK-NEXT:    C[i, j] = C[i, j] * beta + sum(k, alpha * A[i, k] * B[k, j]);

// The lower triangle of a symmetric A, with the diagonal, through a
// scalar temporary that each (i, j) starts anew.
#pragma loopy kernel
void symm_like(int m, int n, double alpha, double beta,
               double C[restrict m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double acc;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      acc = 0.0;
      for (k = 0; k <= i; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = beta * C[i][j] + alpha * acc;
    }
}
// CHECK-LABEL: kernel symm_like(m, n: index; alpha: f64, beta: f64,
// CHECK:         domain { [i, j, k] : 0 <= i < m and 0 <= j < n and 0 <= k <= i }
// CHECK-NEXT:    C[i, j] = beta * C[i, j] + alpha * sum(k, A[i, k] * B[k, j]);

// Two temporaries, one summed and one scaled, in the body of one loop.
#pragma loopy kernel
void row_norms_like(int n, int m, double A[n][m], double s[restrict n],
                    double r[restrict n])
{
  int i, j;
  double sq, w;
  for (i = 0; i < n; i++) {
    sq = 0.0;
    for (j = 0; j < m; j++) {
      w = A[i][j] * A[i][j];
      sq += w;
    }
    s[i] = sq;
    w = 2.0 * sq;
    r[i] = w + 1.0;
  }
}
// CHECK-LABEL: kernel row_norms_like(n, m: index; A: in f64[n, m], s: out f64[n],
// CHECK:         s[i] = sum(j, A[i, j] * A[i, j]);
// CHECK-NEXT:    r[i] = 2 * sum(j, A[i, j] * A[i, j]) + 1;

// Separate nests of one function, each marked.
void atax_like(int m, int n, double A[m][n], double x[n], double y[restrict n],
               double tmp[restrict m])
{
  int i, j;
  double t;
#pragma loopy kernel(atax_like_tmp)
  for (i = 0; i < m; i++) {
    t = 0.0;
    for (j = 0; j < n; j++)
      t += A[i][j] * x[j];
    tmp[i] = t;
  }
#pragma loopy kernel(atax_like_y)
  for (j = 0; j < n; j++) {
    y[j] = 0.0;
    for (i = 0; i < m; i++)
      y[j] += A[i][j] * tmp[i];
  }
}
// CHECK-LABEL: kernel atax_like_tmp(m, n: index; A: in f64[m, n], x: in f64[n],
// CHECK:         tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK-LABEL: kernel atax_like_y(m, n: index; A: in f64[m, n], y: out f64[n],
// CHECK:         y[j] = sum(i, A[i, j] * tmp[i]);

// A time loop around two nests: it stays on the host, each nest a kernel.
#pragma loopy kernel
void jacobi_2d_like(int tsteps, int n, double A[restrict n][n],
                    double B[restrict n][n])
{
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
  }
}
// CHECK:       # part 1 of 2 of the body of the loop over 't' on line 100: the host runs the parts in this order
// CHECK-NEXT:  kernel jacobi_2d_like_0(n: index; A: in f64[n, n], B: out f64[n, n]) {
// CHECK:       # part 2 of 2 of the body of the loop over 't' on line 100: the host runs the parts in this order
// CHECK-NEXT:  kernel jacobi_2d_like_1(n: index; A: out f64[n, n], B: in f64[n, n]) {

// OCL: passed, 0 failed
