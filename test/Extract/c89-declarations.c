// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// C as PolyBench writes it: the indices and temporaries are declared at the
// top of the function and the loops assign them (`for (i = 0; ...)`).
// Indices that nothing reads after their loops, and scalars that each
// iteration sets before it uses them and nothing reads after the nest, are
// private to the kernel.

#pragma loopy kernel
void kernel_mv(int n, double A[n][n], double x[n], double y[restrict n])
{
  int i, j;
  for (i = 0; i < n; i++) {
    y[i] = 0.0;
    for (j = 0; j < n; j++)
      y[i] = y[i] + A[i][j] * x[j];
  }
}
// CHECK-LABEL: kernel kernel_mv(n: index; A: in f64[n, n], x: in f64[n], y: out f64[n]) {
// CHECK-NEXT:   domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:   y[i] = sum(j, A[i, j] * x[j]);

void kernel_gemm_like(int ni, int nj, int nk, double alpha, double beta,
                      double C[restrict ni][nj], double A[ni][nk],
                      double B[nk][nj])
{
  int i, j, k;
  double acc;
  for (i = 0; i < ni; i++)
    C[i][0] = 0;
#pragma loopy kernel(gemm_part)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      acc = 0;
      for (k = 0; k < nk; k++)
        acc += alpha * A[i][k] * B[k][j];
      C[i][j] = beta * C[i][j] + acc;
    }
  for (i = 0; i < ni; i++)
    C[i][0] += 1;
}
// CHECK-LABEL: kernel gemm_part(ni, nj, nk: index; alpha: f64, beta: f64,
// CHECK:   domain { [i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }
// CHECK-NEXT:   C[i, j] = beta * C[i, j] + sum(k, alpha * A[i, k] * B[k, j]);

#pragma loopy kernel
void kernel_square(int n, double alpha, double x[n], double y[restrict n])
{
  int i;
  double t;
  for (i = 0; i < n; i++) {
    t = alpha * x[i];
    y[i] = t * t;
  }
}
// CHECK-LABEL: kernel kernel_square(
// CHECK:   y[i] = alpha * x[i] * (alpha * x[i]);

void kernel_rows(int n, int m, double *restrict s, const double *a)
{
  int r, c;
  double t;
#pragma loopy kernel(rows)
  for (r = 0; r < n; r++) {
    t = 0;
    for (c = 0; c < m; c++)
      t += a[r * m + c];
    s[r] = t;
  }
}
// CHECK-LABEL: kernel rows(
// CHECK:   s[r] = sum(c, a[r, c]);

#pragma loopy kernel
void dead_index_stores(int n, double *restrict y)
{
  int i;
  i = n;
  for (i = 0; i < n; i++)
    y[i] = 2.0 * i;
  i = 0;
}
// CHECK-LABEL: kernel dead_index_stores(n: index; y: out f64[n]) {
// CHECK-NEXT:   domain { [i] : 0 <= i < n }
// CHECK-NEXT:   y[i] = 2 * f64(i);

// After the loop, the function sets the index again before it reads it:
// the value the loop leaves is dead.
void index_set_again(int n, double *restrict y, int *last)
{
  int i;
#pragma loopy kernel(index_set_again)
  for (i = 0; i < n; i++)
    y[i] = 1.0;
  i = 7;
  *last = i;
}
// CHECK-LABEL: kernel index_set_again(n: index; y: out f64[n]) {
// CHECK-NEXT:   domain { [i] : 0 <= i < n }

// A temporary read before the nest only: private to the iterations.
void temp_read_before(int n, double *restrict y, const double *x, double *out)
{
  int i;
  double t;
  t = 2.0;
  *out = t;
#pragma loopy kernel(temp_read_before)
  for (i = 0; i < n; i++) {
    t = x[i] * x[i];
    y[i] = t + 1;
  }
}
// CHECK-LABEL: kernel temp_read_before(n: index; y: out f64[n], x: in f64[n]) {
// CHECK:   y[i] = x[i] * x[i] + 1;
