// RUN: %loopy-extract %s --kernel=kernel_gesummv | FileCheck %s
// RUN: %loopy-extract %s --kernel=kernel_gesummv | %loopyc - --emit=ir > /dev/null
// RUN: %loopy-extract %s --kernel=product | FileCheck --check-prefix=PRODUCT %s
// RUN: %loopy-extract %s --kernel=product | %loopyc - --emit=ir | FileCheck --check-prefix=PRODUCT-IR %s
// Two values accumulated over one loop and then combined linearly, as in
// gesummv, make one reduction: alpha * sum(j, a) + beta * sum(j, b) is
// sum(j, alpha * a + beta * b), one loop over j. A product of two sums is
// not merged: loopyc computes the first into a temporary, in a statement
// of its own (c-check.test runs both against the C).

#pragma loopy kernel
void kernel_gesummv(int n, double alpha, double beta, double A[n][n],
                    double B[n][n], double tmp[restrict n], double x[n],
                    double y[restrict n])
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
// CHECK:      tmp[i] = sum(j, A[i, j] * x[j]);
// CHECK-NEXT: y[i] = sum(j, alpha * (A[i, j] * x[j]) + beta * (B[i, j] * x[j]));

#pragma loopy kernel
void product(int n, double A[n][n], double x[n], double y[restrict n])
{
  int i, j;
  double s, t;
  for (i = 0; i < n; i++) {
    s = 0.0;
    t = 0.0;
    for (j = 0; j < n; j++) {
      s += A[i][j];
      t += x[j];
    }
    y[i] = s * t;
  }
}
// PRODUCT: y[i] = sum(j, A[i, j]) * sum(j, x[j]);
// PRODUCT-IR: statement S0_t0: tmp_S0_0[i] = sum(j, A[i, j])
// PRODUCT-IR: statement S0: y[i] = tmp_S0_0[i] * sum(j, x[j])
