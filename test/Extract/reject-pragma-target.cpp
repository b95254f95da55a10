// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Pragmas in the wrong place. The shape pragma without a kernel is found
// last, after all kernels were matched.

#pragma loopy kernel
int global = 4;
// CHECK-DAG: reject-pragma-target.cpp:[[@LINE-2]]:15: error: '#pragma loopy kernel' must come right before a function definition or a 'for' loop

#pragma loopy shape(x, n)
void unmarked(int n, float *x) {
  for (int i = 0; i < n; i++)
    x[i] = 0;
}
// CHECK-DAG: reject-pragma-target.cpp:[[@LINE-5]]:15: error: '#pragma loopy shape' must be attached to a kernel: add '#pragma loopy kernel' before the same function or loop

#pragma loopy kernel
void declared(int n, float *x);
// CHECK-DAG: reject-pragma-target.cpp:[[@LINE-1]]:6: error: 'declared' is declared here but not defined; put '#pragma loopy kernel' before its definition
