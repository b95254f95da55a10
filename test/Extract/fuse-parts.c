// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s --kernel=syrk_like | %loopyc - --check=opencl --sample=1 --all-params 17 | FileCheck --check-prefix=OCL %s
// After distribution, a part that sets each element of an array once
// (C = beta * C) fuses into the next part that updates the same elements
// (C += alpha * sum): one statement, one whole kernel. Written for this
// test.

#pragma loopy kernel
void gemm_like(int ni, int nj, int nk, double alpha, double beta,
               double C[restrict ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}
// CHECK-LABEL: kernel gemm_like(ni, nj, nk: index; alpha: f64, beta: f64, C: inout f64[ni, nj],
// CHECK-NEXT:                   A: in f64[ni, nk], B: in f64[nk, nj]) {
// CHECK-NEXT:    assume nk > 0;
// CHECK-NEXT:    domain { [i, k, j] : 0 <= i < ni and 0 <= k < nk and 0 <= j < nj }
// CHECK-NEXT:    C[i, j] = C[i, j] * beta + sum(k, alpha * A[i, k] * B[k, j]);

// The lower triangle, with the diagonal.
#pragma loopy kernel
void syrk_like(int n, int m, double alpha, double beta,
               double C[restrict n][n], double A[n][m])
{
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}
// CHECK-LABEL: kernel syrk_like(n, m: index; alpha: f64, beta: f64,
// CHECK:         C[i, j] = C[i, j] * beta + sum(k, alpha * A[i, k] * A[j, k]);

// The first part scales only the diagonal, the second updates the whole
// row: they stay two kernels.
#pragma loopy kernel
void diag_then_rows(int n, double beta, double C[restrict n][n],
                    double A[n][n])
{
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = i; j <= i; j++)
      C[i][j] *= beta;
    for (j = 0; j < n; j++)
      C[i][j] += A[i][j];
  }
}
// CHECK-LABEL: kernel diag_then_rows_0(
// CHECK:         C[i, j] = C[i, j] * beta;
// CHECK-LABEL: kernel diag_then_rows_1(
// CHECK:         C[i, j] = C[i, j] + A[i, j];

// OCL: passed, 0 failed
