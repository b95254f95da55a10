// RUN: not %loopy-extract %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A nest that lifts neither whole nor split by statement reports the
// errors of the parts: each once, although the statement beside the
// loops that sets a scalar goes to every part. Written for this test.

double h(double v);

#pragma loopy kernel
void call_beside(int n, double x[n], double a[restrict n][n],
                 double b[restrict n][n])
{
  int i, j;
  double s;
  for (i = 0; i < n; i++) {
    s = h(x[i]);
    for (j = 0; j < n; j++) {
      a[i][j] = s;
      b[i][j] = a[j][i] + 1.0;
    }
  }
}
// CHECK: reject-split-statements.c:[[@LINE-7]]:9: error: call to 'h' cannot be lifted
// CHECK: 1 error generated.
