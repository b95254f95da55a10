// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A time loop stays on the host, so an in-place stencil under it is
// rejected for the dependence between the iterations of its own loop, not
// for the value that the time loop updates.

#pragma loopy kernel
void seidel_like(int tsteps, int n, double A[restrict n])
{
  int t, i;
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
}
// CHECK: reject-time-loop.c:[[@LINE-2]]:25: error: 'A[i - 1]' reads 'A' at another element than 'A[i]', which the loop nest also writes, so its iterations depend on each other: the iteration (i = 2) reads the element that the iteration (i = 1) writes when n = 4; write the results to a separate array
// CHECK-NOT: error
// CHECK: 1 error generated.
