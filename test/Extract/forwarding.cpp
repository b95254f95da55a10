// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// Values flow through local variables, pointers to rows and elements
// written earlier in the same iteration, which the lifted statement reads
// by value rather than from memory.

#pragma loopy kernel
void softplus_rows(int n, int m, const float *a, float *__restrict t,
                   float *__restrict y) {
  for (int i = 0; i < n; i++) {
    const float *row = a + i * m;
    for (int j = 0; j < m; j++) {
      int at = i * m + j;
      float v = row[j] * row[j];
      t[at] = v + 1;
      y[at] = 2 * t[at];
    }
  }
}

// CHECK-LABEL: kernel softplus_rows(
// CHECK-SAME:    n, m: index; a: in f32[n, m], t: out f32[n, m],
// CHECK-NEXT:    y: out f32[n, m]) {
// CHECK:         t[i, j] = a[i, j] * a[i, j] + 1;
// CHECK-NEXT:    y[i, j] = 2 * (a[i, j] * a[i, j] + 1);
