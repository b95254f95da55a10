// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Rows reached through a pointer to pointers need not be contiguous.

#pragma loopy kernel
void rows(int n, int m, float **a, float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = a[i][j];
}

// CHECK: reject-pointer-to-pointer.cpp:[[@LINE-3]]:22: error: 'a' is a pointer to pointers, whose rows need not be contiguous; pass a flat pointer indexed as 'a[i * m + j]' or a pointer to arrays
// CHECK: reject-pointer-to-pointer.cpp:[[@LINE-7]]:33: note: 'a' is declared here
