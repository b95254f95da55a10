// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Only the loop header may change the index.

#pragma loopy kernel
void skip(int n, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    i += 1;
  }
}

// CHECK: reject-loop-index-modified.cpp:[[@LINE-4]]:5: error: loop index 'i' is modified in the loop body; only the loop header may change it
