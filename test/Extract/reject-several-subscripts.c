// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// RUN: not %loopy-extract %s --kernel=kernel_update 2>&1 | FileCheck --check-prefix=UPDATE %s
// Every subscript that leaves its array is reported in one run, for every
// array: the check of one access does not stop the others.

#pragma loopy kernel
void kernel_edges(int n, double A[n][n], double x[n], double *restrict y,
                  double *restrict z)
{
  int i;
  for (i = 0; i < n; i++) {
    y[i] = A[i][i + 1] + x[i - 1];
    z[i] = x[i + 1];
  }
}
// CHECK: reject-several-subscripts.c:12:12: error: subscript 'i + 1' of 'A' can reach its extent n in dimension 1 (at i = 0 with n = 1)
// CHECK: reject-several-subscripts.c:12:26: error: subscript 'i - 1' of 'x' can be negative (at i = 0 with n = 1)
// CHECK: reject-several-subscripts.c:13:12: error: subscript 'i + 1' of 'x' can reach its extent n in dimension 0 (at i = 0 with n = 1)
// CHECK: 4 errors generated.

// An update reads and writes its element at one place in the source: a
// subscript of it that leaves the array is reported once.
#pragma loopy kernel
void kernel_update(int n, double x[n], double y[restrict n])
{
  int i;
  for (i = 0; i < n; i++)
    y[i + 1] += x[i];
}
// UPDATE: reject-several-subscripts.c:[[@LINE-2]]:5: error: subscript 'i + 1' of 'y' can reach its extent n in dimension 0 (at i = 0 with n = 1)
// UPDATE-NOT: error:
// UPDATE: 1 error generated.
