// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A pointer that moves inside the loop cannot be resolved to an element of
// an argument; index the argument instead.

#pragma loopy kernel
void walk(int n, const float *x, float *__restrict y) {
  const float *p = x;
  for (int i = 0; i < n; i++) {
    y[i] = *p;
    p++;
  }
}

// CHECK: reject-pointer-arithmetic.cpp:[[@LINE-4]]:5: error: cannot resolve 'p' to an element of an array argument: it is assigned again in the loop nest
