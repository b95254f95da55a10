// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Reading the element the previous iteration wrote makes the iterations
// depend on each other.

#pragma loopy kernel
void running(int n, float *__restrict y) {
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] + y[i];
}

// CHECK: reject-dependence.cpp:[[@LINE-3]]:12: error: 'y[i - 1]' reads 'y' at another element than 'y[i]', which the loop nest also writes; its iterations would depend on each other: write the results to a separate array
