// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// y = A·x and y = Aᵀ·x: the reduction index is the inner loop in one and
// the outer loop in the other, where the accumulation into y[j] runs over i.

#pragma loopy kernel
void matvec(int n, int m, const double *a, const double *x,
            double *__restrict y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += a[i * m + j] * x[j];
    y[i] = s;
  }
}

// CHECK-LABEL: kernel matvec(n, m: index; a: in f64[n, m], x: in f64[m], y: out f64[n]) {
// CHECK-NEXT:    assume m > 0;
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    y[i] = sum(j, a[i, j] * x[j]);

#pragma loopy kernel
void matvec_t(int n, int m, const double *a, const double *x,
              double *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[j] += a[i * m + j] * x[i];
}

// CHECK-LABEL: kernel matvec_t(n, m: index; a: in f64[n, m], x: in f64[n], y: inout f64[m]) {
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j < m }
// CHECK-NEXT:    y[j] = y[j] + sum(i, a[i, j] * x[i]);
