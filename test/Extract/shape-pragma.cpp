// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// '#pragma loopy shape' gives an array the shape the loops cannot: 'a' is
// an n x m matrix read up to column k only, which '#pragma loopy assume'
// keeps inside its rows; 'w' is a 3 x 3 filter whose flat subscript 4 (its
// centre) splits by the row length 3 into [1, 1].

#pragma loopy shape(a, n, m)
#pragma loopy shape(w, 3, 3)
#pragma loopy assume(k <= m)
#pragma loopy kernel
void left_part(int n, int m, int k, const float *a, const float *w,
               float *__restrict b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      b[i * k + j] = a[i * m + j] * w[4];
}

// CHECK-LABEL: kernel left_part(
// CHECK-SAME:    n, m, k: index; a: in f32[n, m], w: in f32[3, 3],
// CHECK-NEXT:    b: out f32[n, k]) {
// CHECK-NEXT:    assume k <= m;
// CHECK-NEXT:    domain { [i, j] : 0 <= i < n and 0 <= j < k }
// CHECK-NEXT:    b[i, j] = a[i, j] * w[1, 1];
