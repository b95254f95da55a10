// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// The caller's guarantee k <= m keeps a[i * m + j] inside its rows; the
// assumption k > 0, which the sum stored after the j loop needs, is added
// to it.

#pragma loopy assume(k <= m)
#pragma loopy kernel
void leading_sums(int n, int m, int k, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < k; j++)
      s += a[i * m + j];
    y[i] = s;
  }
}

// CHECK-LABEL: kernel leading_sums(n, m, k: index; a: in f32[n, m], y: out f32[n]) {
// CHECK-NEXT:    assume k <= m and k > 0;
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j < k }
// CHECK-NEXT:    y[i] = sum(j, a[i, j]);
