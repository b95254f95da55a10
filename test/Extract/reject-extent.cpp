// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// The largest subscript of y is min(n, m) - 1, which is not one affine
// expression: .loop needs one extent per dimension.
#include <algorithm>

#pragma loopy kernel
void head(int n, int m, const float *x, float *__restrict y) {
  for (int i = 0; i < std::min(n, m); i++)
    y[i] = x[i];
}

// CHECK: reject-extent.cpp:[[@LINE-3]]:5: error: the size of 'y' is not one affine expression of the parameters (its largest subscript is {{.*}}); give it with '#pragma loopy shape(y, ...)'
