// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// y = L·x for lower-triangular L: the inner bound uses the outer index, so
// the domain is a triangle; every row has at least one term (j = i).

#pragma loopy kernel
void tri_matvec(int n, const double l[n][n], const double *x,
                double *restrict y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += l[i][j] * x[j];
    y[i] = s;
  }
}

// CHECK-LABEL: kernel tri_matvec(n: index; l: in f64[n, n], x: in f64[n], y: out f64[n]) {
// CHECK-NOT:     assume
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j <= i }
// CHECK-NEXT:    y[i] = sum(j, l[i, j] * x[j]);
// CHECK-NEXT:  }
