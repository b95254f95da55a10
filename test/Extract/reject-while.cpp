// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A while loop has no affine bounds to read the domain from.

#pragma loopy kernel
void halve(int n, float *__restrict y) {
  int i = 0;
  while (i < n) {
    y[i] = 0;
    i++;
  }
}

// CHECK: reject-while.cpp:[[@LINE-6]]:3: error: a 'while' loop cannot be lifted: its trip count is not given by affine bounds; write a 'for' loop
