// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// A 5-point stencil on the interior of an n x m grid: the neighbours'
// offsets stay inside the rows of m, and the extents come from the largest
// subscripts.

#pragma loopy kernel
void jacobi(int n, int m, const float *__restrict in, float *__restrict out) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      out[i * m + j] = 0.25f * (in[(i - 1) * m + j] + in[(i + 1) * m + j] +
                                in[i * m + j - 1] + in[i * m + j + 1]);
}

// CHECK-LABEL: kernel jacobi(n, m: index; in_: in f32[n, m], out_: out f32[n - 1, m]) {
// CHECK-NEXT:    domain { [i, j] : 1 <= i < n - 1 and 1 <= j < m - 1 }
// CHECK-NEXT:    out_[i, j] = 0.25 * (in_[i - 1, j] + in_[i + 1, j] + in_[i, j - 1] + in_[i, j + 1]);
// CHECK-NEXT:  }
