// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// An argument is indexed from its first element; reading before it is
// pointer arithmetic the lifted kernel cannot express.

#pragma loopy kernel
void back(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i - 1];
}

// CHECK: reject-negative-subscript.cpp:[[@LINE-3]]:12: error: subscript 'i - 1' of 'x' can be negative (at i = 0 with n = 1); an array argument is indexed from its first element
