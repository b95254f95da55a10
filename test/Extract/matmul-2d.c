// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// C = A·B with C99 array parameters: the extents come from the types, the
// zero stored before the k loop starts the sum, and 'c' is written only.

#pragma loopy kernel
void matmul(int n, int m, int l, const float a[n][l], const float b[l][m],
            float c[restrict n][m]) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      c[i][j] = 0;
      for (int k = 0; k < l; ++k)
        c[i][j] += a[i][k] * b[k][j];
    }
}

// CHECK:      # lifted by loopy-extract from {{.*}}matmul-2d.c:6
// CHECK-NEXT: kernel matmul(n, m, l: index; a: in f32[n, l], b: in f32[l, m],
// CHECK-NEXT:               c: out f32[n, m]) {
// CHECK-NEXT:   assume l > 0;
// CHECK-NEXT:   domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
// CHECK-NEXT:   c[i, j] = sum(k, a[i, k] * b[k, j]);
// CHECK-NEXT: }
