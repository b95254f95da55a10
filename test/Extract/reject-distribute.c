// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A loop body of several loops cannot be distributed where a later part
// of it writes, in an earlier iteration of the loops around, what an
// earlier part accesses: run one kernel per part, the earlier part would
// miss that write. Written for this test.

#pragma loopy kernel
void carried(int n, double A[restrict n][n], double B[restrict n][n])
{
  int i, j;
  for (i = 0; i < n - 1; i++) {
    for (j = 0; j < n; j++)
      B[i][j] = 2.0 * A[i][j];
    for (j = 0; j < n; j++)
      A[i + 1][j] = B[i][j] + 1.0;
  }
}
// CHECK: reject-distribute.c:13:23: error: 'A[i][j]' reads 'A' at the element that 'A[i + 1][j]' writes in an earlier iteration of the loops over 'i': the iteration (i = 1, j = 0) reads what the iteration (i = 0, j = 0) writes when n = 3; the loops carry this dependence back from a later part of their body, so they cannot be split into one kernel per part
// CHECK: reject-distribute.c:15:7: note: 'A[i + 1][j]' is here

// Counting down, the earlier iterations have the larger index: the part
// that reads A[i] would run before the one that writes it at i + 1.
// Counting up, the same loops split (below).
#pragma loopy kernel
void carried_down(int n, double A[restrict n], double B[restrict n])
{
  int i;
  for (i = n - 1; i >= 1; i--) {
    for (int j = 0; j < 1; j++)
      B[i] = A[i];
    for (int j = 0; j < 1; j++)
      A[i - 1] = 3.0;
  }
}
// CHECK: reject-distribute.c:30:14: error: 'A[i]' reads 'A' at the element that 'A[i - 1]' writes in an earlier iteration of the loops over 'i': the iteration (i = 1, j = 0) reads what the iteration (i = 2, j = 0) writes when n = 3;

#pragma loopy kernel
void anti_up(int n, double A[restrict n], double B[restrict n])
{
  int i;
  for (i = 1; i < n; i++) {
    for (int j = 0; j < 1; j++)
      B[i] = A[i];
    for (int j = 0; j < 1; j++)
      A[i - 1] = 3.0;
  }
}
// CHECK-NOT: anti_up
// CHECK: 2 errors generated.
