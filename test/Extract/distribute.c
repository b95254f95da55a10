// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s --kernel=atax_like_2 | %loopyc - --check=opencl --sample=1 --all-params 19 | FileCheck --check-prefix=OCL %s
// A loop whose body holds several loops is distributed: each loop, with
// the statements before it, becomes a whole kernel under copies of the
// loops around it, and the host runs them in order. isl proves that no
// dependence goes back from a later part to an earlier one. Written for
// this test.

#pragma loopy kernel
void atax_like(int m, int n, double A[m][n], double x[n], double y[restrict n],
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
// CHECK:      # lifted by loopy-extract from {{.*}}distribute.c:14
// CHECK-NEXT: # part 1 of 3 of 'atax_like', one kernel per loop nest: the host runs the parts in this order
// CHECK-NEXT: kernel atax_like_0(n: index; y: out f64[n]) {
// CHECK:      # lifted by loopy-extract from {{.*}}distribute.c:18
// CHECK-NEXT: # part 2 of 3 of 'atax_like', its loops over 'i' on line 16 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel atax_like_1(m, n: index; A: in f64[m, n], x: in f64[n],
// CHECK:        domain { [i, j] : 0 <= i < m and 0 <= j < n }
// CHECK-NEXT:   tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK:      # lifted by loopy-extract from {{.*}}distribute.c:20
// CHECK-NEXT: # part 3 of 3 of 'atax_like', its loops over 'i' on line 16 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel atax_like_2(m, n: index; A: in f64[m, n], y: inout f64[n],
// CHECK-NEXT:                    tmp: in f64[m]) {
// CHECK-NEXT:   domain { [i, j] : 0 <= i < m and 0 <= j < n }
// CHECK-NEXT:   y[j] = y[j] + sum(i, A[i, j] * tmp[i]);

// A statement after the first inner loop that uses its scalar stays with
// it; the second loop reads what the first part wrote in the same
// iteration of 'i', which is a dependence forwards.
#pragma loopy kernel
void norm_then_scale(int n, int m, double A[n][m], double B[restrict n][m],
                     double s[restrict n])
{
  int i, j;
  double acc;
  for (i = 0; i < n; i++) {
    acc = 0.0;
    for (j = 0; j < m; j++)
      acc += A[i][j] * A[i][j];
    s[i] = acc;
    for (j = 0; j < m; j++)
      B[i][j] = A[i][j] / s[i];
  }
}
// CHECK:      # part 1 of 2 of 'norm_then_scale', its loops over 'i' on line 48 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel norm_then_scale_0(n, m: index; A: in f64[n, m], s: out f64[n]) {
// CHECK:        s[i] = sum(j, A[i, j] * A[i, j]);
// CHECK:      # part 2 of 2 of 'norm_then_scale', its loops over 'i' on line 48 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel norm_then_scale_1(n, m: index; A: in f64[n, m], B: out f64[n, m],
// CHECK-NEXT:                          s: in f64[n]) {
// CHECK:        B[i, j] = A[i, j] / s[i];

// A marked loop inside a time loop: its inner loops are distributed, and
// each part runs once per iteration of the time loop.
void rows_like(int tsteps, int n, double A[n][n], double B[restrict n][n],
               double C[restrict n][n])
{
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma loopy kernel(rows_step)
    for (i = 1; i < n - 1; i++) {
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.5 * (A[i][j - 1] + A[i][j + 1]);
      for (j = 1; j < n - 1; j++)
        C[i][j] = B[i][j] * A[i - 1][j];
    }
  }
}
// CHECK:      # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 1 of 2 of 'rows_step', its loops over 'i' on line 73 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel rows_step_0(n: index; A: in f64[n, n], B: out f64[n, n]) {
// CHECK:      # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 2 of 2 of 'rows_step', its loops over 'i' on line 73 distributed: the host runs the parts in this order
// CHECK-NEXT: kernel rows_step_1(n: index; A: in f64[n, n], B: in f64[n, n],

// Statements beside the loops on the way down to the split: one that
// sets only a scalar is repeated in every part; one that stores to an
// array goes to the first part (before the loops) or the last (after).
#pragma loopy kernel
void beside(int n, int m, double alpha, double A[m][m],
            double B[restrict n][m][m], double C[restrict n][m][m],
            double r[restrict n], double q[restrict n])
{
  int i, j, k;
  double s;
  for (i = 0; i < n; i++) {
    s = 2.0 * alpha;
    r[i] = alpha;
    for (j = 0; j < m; j++) {
      for (k = 0; k < m; k++)
        B[i][j][k] = s * A[j][k];
      for (k = 0; k < m; k++)
        C[i][j][k] = s + A[k][j];
    }
    q[i] = alpha;
  }
}
// CHECK-LABEL: kernel beside_0(
// CHECK:         r[i] = alpha;
// CHECK-NEXT:    B[i, j, k] = 2 * alpha * A[j, k];
// CHECK-NEXT:  }
// CHECK-LABEL: kernel beside_1(
// CHECK:         C[i, j, k] = 2 * alpha + A[k, j];
// CHECK-NEXT:    q[i] = alpha;
// CHECK-NEXT:  }

/* Coefficients set before the first nest by chains of assignments, as
   deriche's are: the second nest uses some of them too, so the statements
   that set those go to its part as well. */
#pragma loopy kernel
void two_filters(int w, int h, double alpha, double img[w][h],
                 double y1[restrict w][h], double y2[restrict w][h])
{
  double k, a1, a2, a5, a6;
  int i, j;
  k = 1.0 - alpha;
  a1 = a5 = k;
  a2 = a6 = k * alpha;
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      y1[i][j] = a1 * img[i][j] + a2;
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      y2[i][j] = a5 * img[i][j] - a6 * y1[i][j];
}
// CHECK-LABEL: kernel two_filters_0(
// CHECK:         y1[i, j] = (1 - alpha) * img[i, j] + (1 - alpha) * alpha;
// CHECK-LABEL: kernel two_filters_1(
// CHECK:         y2[i, j] = (1 - alpha) * img[i, j] - (1 - alpha) * alpha * y1[i, j];

// OCL: passed, 0 failed
