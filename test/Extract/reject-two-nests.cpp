// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A kernel is one loop nest; two loops side by side run one after the other.

#pragma loopy kernel
void init_then_add(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

// CHECK: reject-two-nests.cpp:[[@LINE-4]]:3: error: a kernel is one loop nest, but this loop stands beside the loop on line 6; mark each nest as its own kernel, or fuse the loops
// CHECK: reject-two-nests.cpp:[[@LINE-7]]:3: note: the first loop is here
