// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Without restrict, y may overlap x, and the iterations could not run in
// parallel.

#pragma loopy kernel
void copy(int n, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

// CHECK: reject-alias.cpp:[[@LINE-3]]:5: error: 'y' may alias 'x': the loop nest writes 'y' and reads 'x' through pointers that may overlap; declare one of them 'restrict' ('__restrict' in C++)
// CHECK: reject-alias.cpp:[[@LINE-6]]:41: note: 'y' is declared here
