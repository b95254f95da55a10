// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// C = A·B on flat row-major buffers: the subscripts i * l + k and k * m + j
// split by their strides l and m into 2-d accesses, and the scalar
// accumulator becomes the sum stored after the k loop.

#pragma loopy kernel
void matmul(int n, int m, int l, const float *a, const float *b,
            float *__restrict c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < l; ++k)
        acc += a[i * l + k] * b[k * m + j];
      c[i * m + j] = acc;
    }
}

// CHECK-LABEL: kernel matmul(
// CHECK-SAME:    n, m, l: index; a: in f32[n, l], b: in f32[l, m],
// CHECK-NEXT:    c: out f32[n, m]) {
// CHECK-NEXT:    assume l > 0;
// CHECK-NEXT:    domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
// CHECK-NEXT:    c[i, j] = sum(k, a[i, k] * b[k, j]);
// CHECK-NEXT:  }
