// RUN: %loopy-extract %s > %t.loop
// RUN: FileCheck %s < %t.loop
// RUN: %loopyc %t.loop --check=opencl --sample=1 --all-params 11 --param t=2 --param r=3 --param q=10 | FileCheck --check-prefix=OCL %s
// Linear algebra, data mining and stencil kernels written for this test
// in the style of PolyBench/C (C89 declarations at the top, imperfect
// nests, several nests per function, time loops, function-scope
// temporaries), each function marked with '#pragma loopy kernel' only
// (fdtd_2d's first nest writes ey[0][j], which the kernel assumes is
// inside ey, as the C code does). Every kernel lifts whole, or as whole kernels per part, and
// every lifted kernel runs on PoCL against the interpreter.

#include <math.h>

#pragma loopy kernel
void gemm(int ni, int nj, int nk, double alpha, double beta,
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

#pragma loopy kernel
void k2mm(int ni, int nj, int nk, int nl, double alpha, double beta,
          double tmp[restrict ni][nj], double A[ni][nk], double B[nk][nj],
          double C[nj][nl], double D[restrict ni][nl])
{
  int i, j, k;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}

#pragma loopy kernel
void k3mm(int ni, int nj, int nk, int nl, int nm, double E[restrict ni][nj],
          double A[ni][nk], double B[nk][nj], double F[restrict nj][nl],
          double C[nj][nm], double D[nm][nl], double G[restrict ni][nl])
{
  int i, j, k;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
}

#pragma loopy kernel
void atax(int m, int n, double A[m][n], double x[n], double y[restrict n],
          double tmp[restrict m])
{
  int i, j;
  for (i = 0; i < n; i++)
    y[i] = 0;
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}

#pragma loopy kernel
void bicg(int m, int n, double A[n][m], double s[restrict m],
          double q[restrict n], double p[m], double r[n])
{
  int i, j;
  for (i = 0; i < m; i++)
    s[i] = 0;
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

#pragma loopy kernel
void mvt(int n, double x1[restrict n], double x2[restrict n], double y_1[n],
         double y_2[n], double A[n][n])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
}

#pragma loopy kernel
void gesummv(int n, double alpha, double beta, double A[n][n], double B[n][n],
             double tmp[restrict n], double x[n], double y[restrict n])
{
  int i, j;
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < n; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

#pragma loopy kernel
void gemver(int n, double alpha, double beta, double A[restrict n][n],
            double u1[n], double v1[n], double u2[n], double v2[n],
            double w[restrict n], double x[restrict n], double y[n],
            double z[n])
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

#pragma loopy kernel
void syrk(int n, int m, double alpha, double beta, double C[restrict n][n],
          double A[n][m])
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

#pragma loopy kernel
void syr2k(int n, int m, double alpha, double beta, double C[restrict n][n],
           double A[n][m], double B[n][m])
{
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}

/* symm's part that has no dependence: the product with the lower
   triangle of A, diagonal included, through a temporary that each (i, j)
   starts anew. */
#pragma loopy kernel
void symm_part(int m, int n, double alpha, double beta,
               double C[restrict m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double temp2;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k <= i; k++)
        temp2 += B[k][j] * A[i][k];
      C[i][j] = beta * C[i][j] + alpha * temp2;
    }
}

/* doitgen with its result in an array of its own (PolyBench reuses one
   row of sums, which is a dependence across (r, q)). */
#pragma loopy kernel
void doitgen(int nr, int nq, int np, double A[nr][nq][np], double C4[np][np],
             double out[restrict nr][nq][np])
{
  int r, q, p, s;
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++)
      for (p = 0; p < np; p++) {
        out[r][q][p] = 0.0;
        for (s = 0; s < np; s++)
          out[r][q][p] += A[r][q][s] * C4[s][p];
      }
}

/* doitgen as PolyBench writes it: one row of sums, rewritten in every
   (r, q) iteration and then copied back. The loops over r and q stay on
   the host; isl proves that they carry no true dependence. */
#pragma loopy kernel
void doitgen_rows(int nr, int nq, int np, double A[restrict nr][nq][np],
                  double C4[np][np], double sum[restrict np])
{
  int r, q, p, s;
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}

#pragma loopy kernel
void covariance(int m, int n, double float_n, double data[restrict n][m],
                double cov[restrict m][m], double mean[restrict m])
{
  int i, j, k;
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }
}

#pragma loopy kernel
void correlation(int m, int n, double float_n, double data[restrict n][m],
                 double corr[restrict m][m], double mean[restrict m],
                 double stddev[restrict m])
{
  int i, j, k;
  double eps = 0.1;
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += (data[k][i] * data[k][j]);
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
}

#pragma loopy kernel
void jacobi_1d(int tsteps, int n, double A[restrict n], double B[restrict n])
{
  int t, i;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

#pragma loopy kernel
void jacobi_2d(int tsteps, int n, double A[restrict n][n],
               double B[restrict n][n])
{
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
}

#pragma loopy kernel
void fdtd_2d(int tmax, int nx, int ny, double ex[restrict nx][ny],
             double ey[restrict nx][ny], double hz[restrict nx][ny],
             double fict[tmax])
{
  int t, i, j;
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

#pragma loopy kernel
void heat_3d(int tsteps, int n, double A[restrict n][n][n],
             double B[restrict n][n][n])
{
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                     + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                     + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }
}

// CHECK-LABEL: kernel gemm(
// CHECK:         domain { [i, k, j] : 0 <= i < ni and 0 <= k < nk and 0 <= j < nj }
// CHECK-NEXT:    C[i, j] = C[i, j] * beta + sum(k, alpha * A[i, k] * B[k, j]);
// CHECK-LABEL: kernel k2mm_0(
// CHECK:         domain { [i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }
// CHECK-NEXT:    tmp[i, j] = sum(k, alpha * A[i, k] * B[k, j]);
// CHECK-LABEL: kernel k2mm_1(
// CHECK:         domain { [i, j, k] : 0 <= i < ni and 0 <= j < nl and 0 <= k < nj }
// CHECK-NEXT:    D[i, j] = D[i, j] * beta + sum(k, tmp[i, k] * C[k, j]);
// CHECK-LABEL: kernel k3mm_0(
// CHECK:         domain { [i, j, k] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk }
// CHECK-NEXT:    E[i, j] = sum(k, A[i, k] * B[k, j]);
// CHECK-LABEL: kernel k3mm_1(
// CHECK:         domain { [i, j, k] : 0 <= i < nj and 0 <= j < nl and 0 <= k < nm }
// CHECK-NEXT:    F[i, j] = sum(k, C[i, k] * D[k, j]);
// CHECK-LABEL: kernel k3mm_2(
// CHECK:         domain { [i, j, k] : 0 <= i < ni and 0 <= j < nl and 0 <= k < nj }
// CHECK-NEXT:    G[i, j] = sum(k, E[i, k] * F[k, j]);
// CHECK-LABEL: kernel atax_0(
// CHECK:         domain { [i] : 0 <= i < n }
// CHECK-NEXT:    y[i] = 0;
// CHECK-LABEL: kernel atax_1(
// CHECK:         domain { [i, j] : 0 <= i < m and 0 <= j < n }
// CHECK-NEXT:    tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK-LABEL: kernel atax_2(
// CHECK:         domain { [i, j] : 0 <= i < m and 0 <= j < n }
// CHECK-NEXT:    y[j] = y[j] + sum(i, A[i, j] * tmp[i]);
// CHECK-LABEL: kernel bicg_0(
// CHECK:         domain { [i] : 0 <= i < m }
// CHECK-NEXT:    s[i] = 0;
// CHECK-LABEL: kernel bicg_1(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    q[i] = sum(j, A[i, j] * p[j]);
// CHECK-NEXT:    s[j] = s[j] + sum(i, r[i] * A[i, j]);
// CHECK-LABEL: kernel mvt_0(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    x1[i] = x1[i] + sum(j, A[i, j] * y_1[j]);
// CHECK-LABEL: kernel mvt_1(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    x2[i] = x2[i] + sum(j, A[j, i] * y_2[j]);
// CHECK-LABEL: kernel gesummv(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK-NEXT:    y[i] = sum(j, alpha * (A[i, j] * x[j]) + beta * (B[i, j] * x[j]));
// CHECK-LABEL: kernel gemver_0(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    A[i, j] = A[i, j] + u1[i] * v1[j] + u2[i] * v2[j];
// CHECK-LABEL: kernel gemver_1(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    x[i] = x[i] + sum(j, beta * A[j, i] * y[j]);
// CHECK-LABEL: kernel gemver_2(
// CHECK:         domain { [i] : 0 <= i < n }
// CHECK-NEXT:    x[i] = x[i] + z[i];
// CHECK-LABEL: kernel gemver_3(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < n }
// CHECK-NEXT:    w[i] = w[i] + sum(j, alpha * A[i, j] * x[j]);
// CHECK-LABEL: kernel syrk(
// CHECK:         domain { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j <= i }
// CHECK-NEXT:    C[i, j] = C[i, j] * beta + sum(k, alpha * A[i, k] * A[j, k]);
// CHECK-LABEL: kernel syr2k(
// CHECK:         domain { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j <= i }
// CHECK-NEXT:    C[i, j] = C[i, j] * beta + sum(k, A[j, k] * alpha * B[i, k] + B[j, k] * alpha * A[i, k]);
// CHECK-LABEL: kernel symm_part(
// CHECK:         domain { [i, j, k] : 0 <= i < m and 0 <= j < n and 0 <= k <= i }
// CHECK-NEXT:    C[i, j] = beta * C[i, j] + alpha * sum(k, B[k, j] * A[i, k]);
// CHECK-LABEL: kernel doitgen(
// CHECK:         domain { [r, q, p, s] : 0 <= r < nr and 0 <= q < nq and 0 <= p < np and 0 <= s < np }
// CHECK-NEXT:    out_[r, q, p] = sum(s, A[r, q, s] * C4[s, p]);
// CHECK:       # inside the loops over 'r', 'q', which stay on the host: it runs once per iteration of them
// CHECK-NEXT:  # part 1 of 2 of 'doitgen_rows', the body of its loops over 'r', 'q' on line [[#]], which stay on the host: it runs the parts in this order
// CHECK-NEXT:  kernel doitgen_rows_0(nr, nq, np, r, q: index;
// CHECK:         assume 0 <= r < nr and 0 <= q < nq;
// CHECK-NEXT:    domain { [p, s] : 0 <= p < np and 0 <= s < np }
// CHECK-NEXT:    sum_[p] = sum(s, A[r, q, s] * C4[s, p]);
// CHECK:       # part 2 of 2 of 'doitgen_rows'
// CHECK-NEXT:  kernel doitgen_rows_1(nr, nq, np, r, q: index; A: out f64[nr, nq, np],
// CHECK:         assume 0 <= r < nr and 0 <= q < nq;
// CHECK-NEXT:    domain { [p] : 0 <= p < np }
// CHECK-NEXT:    A[r, q, p] = sum_[p];
// CHECK-LABEL: kernel covariance_0(
// CHECK:         domain { [j, i] : 0 <= j < m and 0 <= i < n }
// CHECK-NEXT:    mean[j] = sum(i, data[i, j]) / float_n;
// CHECK-LABEL: kernel covariance_1(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    data[i, j] = data[i, j] - mean[j];
// CHECK-LABEL: kernel covariance_2(
// CHECK:         domain { [i, j, k] : 0 <= i < m and i <= j < m and 0 <= k < n }
// CHECK-NEXT:    cov[i, j] = sum(k, data[k, i] * data[k, j]) / (float_n - 1);
// CHECK-LABEL: kernel covariance_3(
// CHECK:         domain { [i, j, k] : 0 <= i < m and i < j < m and 0 <= k < n }
// CHECK-NEXT:    cov[j, i] = sum(k, data[k, i] * data[k, j]) / (float_n - 1);
// CHECK-LABEL: kernel correlation_0(
// CHECK:         domain { [j, i] : 0 <= j < m and 0 <= i < n }
// CHECK-NEXT:    mean[j] = sum(i, data[i, j]) / float_n;
// CHECK-LABEL: kernel correlation_1(
// CHECK:         domain { [j, i] : 0 <= j < m and 0 <= i < n }
// CHECK-NEXT:    stddev[j] = sum(i, (data[i, j] - mean[j]) * (data[i, j] - mean[j]));
// CHECK-LABEL: kernel correlation_2(
// CHECK:         domain { [j, i] : 0 <= j < m and 0 <= i < n }
// CHECK-NEXT:    stddev[j] = select(sqrt(stddev[j] / float_n) <= 0.1, 1, sqrt(stddev[j] / float_n));
// CHECK-LABEL: kernel correlation_3(
// CHECK:         domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    data[i, j] = (data[i, j] - mean[j]) / (sqrt(float_n) * stddev[j]);
// CHECK-LABEL: kernel correlation_4(
// CHECK:         domain { [i, j, k] : 0 <= i < m - 1 and i + 1 <= j < m and 0 <= k < n }
// CHECK-NEXT:    corr[i, i] = 1;
// CHECK-NEXT:    corr[i, j] = sum(k, data[k, i] * data[k, j]);
// CHECK-NEXT:    corr[j, i] = sum(k, data[k, i] * data[k, j]);
// CHECK-NEXT:    corr[m - 1, m - 1] = 1;
// CHECK-LABEL: kernel jacobi_1d_0(
// CHECK:         domain { [i] : 1 <= i < n - 1 }
// CHECK-NEXT:    B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
// CHECK-LABEL: kernel jacobi_1d_1(
// CHECK:         domain { [i] : 1 <= i < n - 1 }
// CHECK-NEXT:    A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
// CHECK-LABEL: kernel jacobi_2d_0(
// CHECK:         domain { [i, j] : 1 <= i < n - 1 and 1 <= j < n - 1 }
// CHECK-NEXT:    B[i, j] = 0.2 * (A[i, j] + A[i, j - 1] + A[i, j + 1] + A[i + 1, j] + A[i - 1, j]);
// CHECK-LABEL: kernel jacobi_2d_1(
// CHECK:         domain { [i, j] : 1 <= i < n - 1 and 1 <= j < n - 1 }
// CHECK-NEXT:    A[i, j] = 0.2 * (B[i, j] + B[i, j - 1] + B[i, j + 1] + B[i + 1, j] + B[i - 1, j]);
// CHECK-LABEL: kernel fdtd_2d_0(
// CHECK:         assume 0 <= t < tmax and (ny <= 0 or (ny > 0 and nx > 0));
// CHECK-NEXT:    domain { [j] : 0 <= j < ny }
// CHECK-NEXT:    ey[0, j] = fict[t];
// CHECK-LABEL: kernel fdtd_2d_1(
// CHECK:         domain { [i, j] : 1 <= i < nx and 0 <= j < ny }
// CHECK-NEXT:    ey[i, j] = ey[i, j] - 0.5 * (hz[i, j] - hz[i - 1, j]);
// CHECK-LABEL: kernel fdtd_2d_2(
// CHECK:         domain { [i, j] : 0 <= i < nx and 1 <= j < ny }
// CHECK-NEXT:    ex[i, j] = ex[i, j] - 0.5 * (hz[i, j] - hz[i, j - 1]);
// CHECK-LABEL: kernel fdtd_2d_3(
// CHECK:         domain { [i, j] : 0 <= i < nx - 1 and 0 <= j < ny - 1 }
// CHECK-NEXT:    hz[i, j] = hz[i, j] - 0.7 * (ex[i, j + 1] - ex[i, j] + ey[i + 1, j] - ey[i, j]);
// CHECK-LABEL: kernel heat_3d_0(
// CHECK:         domain { [i, j, k] : 1 <= i < n - 1 and 1 <= j < n - 1 and 1 <= k < n - 1 }
// CHECK-NEXT:    B[i, j, k] = 0.125 * (A[i + 1, j, k] - 2 * A[i, j, k] + A[i - 1, j, k]) + 0.125 * (A[i, j + 1, k] - 2 * A[i, j, k] + A[i, j - 1, k]) + 0.125 * (A[i, j, k + 1] - 2 * A[i, j, k] + A[i, j, k - 1]) + A[i, j, k];
// CHECK-LABEL: kernel heat_3d_1(
// CHECK:         domain { [i, j, k] : 1 <= i < n - 1 and 1 <= j < n - 1 and 1 <= k < n - 1 }
// CHECK-NEXT:    A[i, j, k] = 0.125 * (B[i + 1, j, k] - 2 * B[i, j, k] + B[i - 1, j, k]) + 0.125 * (B[i, j + 1, k] - 2 * B[i, j, k] + B[i, j - 1, k]) + 0.125 * (B[i, j, k + 1] - 2 * B[i, j, k] + B[i, j, k - 1]) + B[i, j, k];

// OCL-COUNT-43: variants (of {{[0-9]+}}) match the interpreter
// OCL-NOT: FAIL
