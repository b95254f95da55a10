// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A kernel returns results through arrays only.

#pragma loopy kernel
void count(int n, const float *x, float total) {
  for (int i = 0; i < n; i++)
    total += x[i];
}

// CHECK: reject-write-argument.cpp:[[@LINE-3]]:5: error: assignment to 'total', declared outside the kernel, cannot be lifted: a kernel writes only arrays; store the value through a pointer argument
