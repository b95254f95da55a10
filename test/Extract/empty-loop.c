// RUN: %loopy-extract %s > %t.loop
// RUN: FileCheck %s < %t.loop
// RUN: %loopyc %t.loop --check=opencl --sample=1 --all-params 7 | FileCheck --check-prefix=OCL %s
// RUN: %python %S/Inputs/c-check.py --loopyc %loopyc %s | FileCheck --check-prefix=C %s
// C runs a statement after an inner loop even where that loop runs zero
// times, but a .loop statement runs only where every loop of its kernel
// runs. Where that happens at some rows for every size (the first row of
// a lower triangle, the last of an upper one), so that no assumption can
// exclude it, those rows become a kernel of their own whose reductions
// have no terms: a sum is 0, a maximum the value it started from. isl
// finds the rows and their bounds. Written for this test.

/* Row 0 sums nothing. */
#pragma loopy kernel
void left_sums(int n, double A[n][n], double y[restrict n])
{
  int i, k;
  double s;
  for (i = 0; i < n; i++) {
    s = 0.0;
    for (k = 0; k < i; k++)
      s += A[i][k];
    y[i] = A[i][i] + 2.0 * s;
  }
}
// CHECK-LABEL: # part 1 of 2 of 'left_sums', the iterations of its loops over 'i' where the loop over 'k' runs: the host runs the parts in this order
// CHECK-NEXT:  kernel left_sums_0(
// CHECK-NEXT:    domain { [i, k] : 0 <= i < n and 0 <= k < i }
// CHECK-NEXT:    y[i] = A[i, i] + 2 * sum(k, A[i, k]);
// CHECK-LABEL: # part 2 of 2 of 'left_sums', the iterations of its loops over 'i' where the loop over 'k' runs zero times, so that its reductions have no terms: the host runs the parts in this order
// CHECK-NEXT:  kernel left_sums_1(
// CHECK-NEXT:    domain { [i] : 0 <= i and i < n and i <= 0 }
// CHECK-NEXT:    y[i] = A[i, i] + 2 * 0;

/* The last row has no element right of the diagonal: its maximum is the
   value it started from. */
#pragma loopy kernel
void right_max(int n, double A[n][n], double x[n], double y[restrict n])
{
  int i, k;
  double m;
  for (i = 0; i < n; i++) {
    m = x[i];
    for (k = i + 1; k < n; k++)
      if (A[i][k] > m)
        m = A[i][k];
    y[i] = m;
  }
}
// CHECK-LABEL: kernel right_max_0(
// CHECK:         y[i] = max(x[i], max(k, A[i, k]));
// CHECK-LABEL: kernel right_max_1(
// CHECK-NEXT:    domain { [i] : 0 <= i and n - 1 <= i and i <= n - 1 }
// CHECK-NEXT:    y[i] = x[i];

// OCL: 4 passed, 0 failed
// C: left_sums (n = 5): 2 kernels, 2 launches match the C function
// C: left_sums (n = 6): 2 kernels, 2 launches match the C function
// C: right_max (n = 5): 2 kernels, 2 launches match the C function
// C: right_max (n = 6): 2 kernels, 2 launches match the C function
