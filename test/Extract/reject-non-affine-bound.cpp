// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A bound that multiplies two parameters is not affine, so isl cannot
// describe the loop.

#pragma loopy kernel
void square(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n * n; i++)
    y[i] = x[i];
}

// CHECK: reject-non-affine-bound.cpp:[[@LINE-4]]:23: error: loop bound 'n * n' is not affine in the loop indices and parameters: it multiplies 'n' by 'n'
// CHECK-NEXT: {{^}}  for (int i = 0; i < n * n; i++)
// CHECK-NEXT: {{^}}                      ^~~~~
// CHECK-NOT: kernel
