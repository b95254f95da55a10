// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Reading the element the previous iteration wrote makes the iterations
// depend on each other; the message gives two iterations that conflict, as
// isl finds them, and names the access that really conflicts.

#pragma loopy kernel
void running(int n, float *__restrict y) {
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] + y[i];
}

// CHECK: reject-dependence.cpp:[[@LINE-3]]:12: error: 'y[i - 1]' reads 'y' at another element than 'y[i]', which the loop nest also writes, so its iterations depend on each other: the iteration (i = 2) reads the element that the iteration (i = 1) writes when n = 3; write the results to a separate array

// In LU's update, 'A[i][k]' (k < i <= j) never meets an element that the
// nest writes; 'A[k][j]' does.
#pragma loopy kernel
void lu_like(int n, double (*__restrict A)[64]) {
  int i, j, k;
  double w;
  for (i = 0; i < n; i++)
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
}

// CHECK: reject-dependence.cpp:[[@LINE-5]]:24: error: 'A[k][j]' reads 'A' at another element than 'A[i][j]', which the loop nest also writes, so its iterations depend on each other: the iteration (j = {{[0-9]+}}, k = {{[0-9]+}}) reads the element that the iteration (i = {{[0-9]+}}, j = {{[0-9]+}}) writes when n = {{[0-9]+}}; write the results to a separate array
