// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// Kernels in the style of PolyBench/C, written for this test: C89
// declarations at the top of each function, one marked nest per kernel,
// time loops and outer loops that stay on the host. Every nest lifts; the
// indices of the host loops that a nest uses become index parameters with
// their ranges assumed.

void kernel_atax_like(int m, int n, double A[m][n], double x[n],
                      double y[restrict n], double tmp[restrict m])
{
  int i, j;
#pragma loopy kernel(atax_tmp)
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
  }
#pragma loopy kernel(atax_y)
  for (j = 0; j < n; j++) {
    y[j] = 0.0;
    for (i = 0; i < m; i++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}

void kernel_mvt_like(int n, double x1[restrict n], double x2[restrict n],
                     double y_1[n], double y_2[n], double A[n][n])
{
  int i, j;
#pragma loopy kernel(mvt_1)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
#pragma loopy kernel(mvt_2)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
}

void kernel_jacobi_like(int tsteps, int n, double A[restrict n],
                        double B[restrict n])
{
  int t, i;
  for (t = 0; t < tsteps; t++) {
#pragma loopy kernel(jacobi_ab)
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
#pragma loopy kernel(jacobi_ba)
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

void kernel_heat_like(int tsteps, int n, double A[restrict n][n][n],
                      double B[restrict n][n][n])
{
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
#pragma loopy kernel(heat_step)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
  }
}

void kernel_gemver_like(int n, double alpha, double beta,
                        double A[restrict n][n], double u1[n], double v1[n],
                        double u2[n], double v2[n], double w[restrict n],
                        double x[restrict n], double y[n], double z[n])
{
  int i, j;
#pragma loopy kernel(gemver_a)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
#pragma loopy kernel(gemver_x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
#pragma loopy kernel(gemver_z)
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
#pragma loopy kernel(gemver_w)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

void kernel_bicg_like(int m, int n, double A[n][m], double s[restrict m],
                      double q[restrict n], double p[m], double r[n])
{
  int i, j;
#pragma loopy kernel(bicg_q)
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++)
      q[i] = q[i] + A[i][j] * p[j];
  }
#pragma loopy kernel(bicg_s)
  for (j = 0; j < m; j++) {
    s[j] = 0;
    for (i = 0; i < n; i++)
      s[j] = s[j] + r[i] * A[i][j];
  }
}

void kernel_fdtd_like(int tmax, int nx, int ny, double ex[restrict nx][ny],
                      double ey[restrict nx][ny], double hz[restrict nx][ny])
{
  int t, i, j;
  for (t = 0; t < tmax; t++) {
#pragma loopy kernel(fdtd_ey)
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma loopy kernel(fdtd_hz)
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

void kernel_doitgen_like(int nr, int nq, int np, double A[restrict nr][nq][np],
                         double C4[np][np], double sum[restrict np])
{
  int r, q, p, s;
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
#pragma loopy kernel(doitgen_sum)
      for (p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
    }
}

// CHECK-LABEL: kernel atax_tmp(m, n: index; A: in f64[m, n], x: in f64[n], tmp: out f64[m]) {
// CHECK:         tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK-LABEL: kernel atax_y(m, n: index; A: in f64[m, n], y: out f64[n], tmp: in f64[m]) {
// CHECK:         y[j] = sum(i, A[i, j] * tmp[i]);
// CHECK-LABEL: kernel mvt_1(
// CHECK:         x1[i] = x1[i] + sum(j, A[i, j] * y_1[j]);
// CHECK-LABEL: kernel mvt_2(
// CHECK:         x2[i] = x2[i] + sum(j, A[j, i] * y_2[j]);
// CHECK:       # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT:  kernel jacobi_ab(n: index; A: in f64[n], B: out f64[n]) {
// CHECK:       # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT:  kernel jacobi_ba(n: index; A: out f64[n], B: in f64[n]) {
// CHECK-LABEL: kernel heat_step(n: index; A: in f64[n, n, n], B: out f64[n, n, n]) {
// CHECK-NEXT:    domain { [i, j, k] : 1 <= i < n - 1 and 1 <= j < n - 1 and 1 <= k < n - 1 }
// CHECK-LABEL: kernel gemver_a(
// CHECK-LABEL: kernel gemver_x(
// CHECK-LABEL: kernel gemver_z(
// CHECK-LABEL: kernel gemver_w(
// CHECK-LABEL: kernel bicg_q(
// CHECK-LABEL: kernel bicg_s(
// CHECK-LABEL: kernel fdtd_ey(
// CHECK-LABEL: kernel fdtd_hz(
// CHECK:       # inside the loops over 'r', 'q', which stay on the host: it runs once per iteration of them
// CHECK-NEXT:  kernel doitgen_sum(nr, nq, np, r, q: index; A: in f64[nr, nq, np],
// CHECK-NEXT:                     C4: in f64[np, np], sum_: out f64[np]) {
// CHECK-NEXT:    assume 0 <= r < nr and 0 <= q < nq;
// CHECK-NEXT:    domain { [p, s] : 0 <= p < np and 0 <= s < np }
// CHECK-NEXT:    sum_[p] = sum(s, A[r, q, s] * C4[s, p]);
