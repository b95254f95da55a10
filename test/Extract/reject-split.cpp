// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// The flat subscript r * stride + c is a[r, c] only if c stays below the
// row length stride, which nothing here says.

#pragma loopy kernel
void copy_block(int rows, int cols, int stride, const float *a,
                float *__restrict b) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      b[r * cols + c] = a[r * stride + c];
}

// CHECK: reject-split.cpp:[[@LINE-3]]:25: error: subscript 'r * stride + c' of 'a' does not split into the dimensions [?, stride]: 'c' leaves 0 .. stride - 1 (at r = 0, c = 0 with rows = 1, cols = 1, stride = 0); give the shape with '#pragma loopy shape(a, ...)', or what keeps it inside with '#pragma loopy assume(...)'
