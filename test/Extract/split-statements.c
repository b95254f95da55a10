// RUN: %loopy-extract %s > %t.loop
// RUN: FileCheck %s < %t.loop
// RUN: %loopyc %t.loop --check=opencl --sample=1 --all-params 9 | FileCheck --check-prefix=OCL %s
// An innermost loop body whose statements write an array that another
// one accesses does not lift as one kernel; where its statements form
// several groups (joined by the scalars they share), each group is a
// part under copies of the loops, and the parts run in the order that
// their dependences allow, which isl finds from their access relations,
// not in source order. c-check.test runs each function against the C.
// Written for this test.

/* symm's shape from row 1 on, so that every row's sum over k < i has a
   term: the update of row i (with its temporary) reads C[i][j] before
   the later rows add to it, so it runs first. */
#pragma loopy kernel
void symm_rows(int m, int n, double alpha, double beta,
               double C[restrict m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double acc;
  for (i = 1; i < m; i++)
    for (j = 0; j < n; j++) {
      acc = 0.0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        acc += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * acc;
    }
}
// CHECK-LABEL: # part 1 of 2 of 'symm_rows', its loops over 'i', 'j' on line [[#]] split by statement, in the order of their dependences: the host runs the parts in this order
// CHECK-NEXT:  kernel symm_rows_0(
// CHECK:         domain { [i, j, k] : 1 <= i < m and 0 <= j < n and 0 <= k < i }
// CHECK-NEXT:    C[i, j] = beta * C[i, j] + alpha * B[i, j] * A[i, i] + alpha * sum(k, B[k, j] * A[i, k]);
// CHECK-LABEL: # part 2 of 2 of 'symm_rows'
// CHECK-NEXT:  kernel symm_rows_1(
// CHECK:         domain { [i, j, k] : 1 <= i < m and 0 <= j < n and 0 <= k < i }
// CHECK-NEXT:    C[k, j] = C[k, j] + sum(i, alpha * B[i, j] * A[i, k]);

/* symm as PolyBench/C writes it, from row 0: row 0's sum over k < 0 has
   no term, for every m, so that the update of that row is a kernel of its
   own, whose sum is 0 (empty-loop.c), between the update of the other
   rows and the sums that the later rows add to it. */
#pragma loopy kernel
void symm(int m, int n, double alpha, double beta, double C[restrict m][n],
          double A[m][m], double B[m][n])
{
  int i, j, k;
  double temp2;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
}
// CHECK-LABEL: # part 1 of 3 of 'symm', its loops over 'i', 'j' on line [[#]] split by statement, in the order of their dependences: the host runs the parts in this order
// CHECK-NEXT:  kernel symm_0(
// CHECK:         domain { [i, j, k] : 0 <= i < m and 0 <= j < n and 0 <= k < i }
// CHECK-NEXT:    C[i, j] = beta * C[i, j] + alpha * B[i, j] * A[i, i] + alpha * sum(k, B[k, j] * A[i, k]);
// CHECK-LABEL: # part 2 of 3 of 'symm', the iterations of its loops over 'i', 'j' where the loop over 'k' runs zero times, so that its reductions have no terms: the host runs the parts in this order
// CHECK-NEXT:  kernel symm_1(
// CHECK:         domain { [i, j] : 0 <= i and i < m and i <= 0 and 0 <= j < n }
// CHECK-NEXT:    C[i, j] = beta * C[i, j] + alpha * B[i, j] * A[i, i] + alpha * 0;
// CHECK-LABEL: # part 3 of 3 of 'symm', its loops over 'i', 'j' on line [[#]] split by statement
// CHECK-NEXT:  kernel symm_2(
// CHECK:         C[k, j] = C[k, j] + sum(i, alpha * B[i, j] * A[i, k]);

/* The second statement overwrites what the first reads: the reads go
   first, as in the source. */
#pragma loopy kernel
void save_then_reset(int n, double y[restrict n], double z[restrict n])
{
  int i;
  for (i = 0; i < n; i++) {
    z[i] = 2.0 * y[i];
    y[i] = 1.0;
  }
}
// CHECK-LABEL: kernel save_then_reset_0(
// CHECK:         z[i] = 2 * y[i];
// CHECK-LABEL: kernel save_then_reset_1(
// CHECK:         y[i] = 1;

/* A triangle and its mirror with another value: on the diagonal the
   second write wins, so it runs second. */
#pragma loopy kernel
void mirror_scaled(int m, double a[m][m], double b[restrict m][m])
{
  int i, j;
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      b[i][j] = a[i][j];
      b[j][i] = 2.0 * a[i][j];
    }
}
// CHECK-LABEL: kernel mirror_scaled_0(
// CHECK:         b[i, j] = a[i, j];
// CHECK-LABEL: kernel mirror_scaled_1(
// CHECK:         b[j, i] = 2 * a[i, j];

/* The first statement reads x[i], which the second wrote in the
   iteration before: the second goes first, against the source order. */
#pragma loopy kernel
void shift_rows(int n, double x[restrict n], double y[restrict n],
                double w[restrict n])
{
  int i;
  for (i = 0; i < n - 1; i++) {
    w[i] = y[i + 1] + x[i];
    x[i + 1] = 3.0 * y[i];
  }
}
// CHECK-LABEL: kernel shift_rows_0(
// CHECK:         x[i + 1] = 3 * y[i];
// CHECK-LABEL: kernel shift_rows_1(
// CHECK:         w[i] = y[i + 1] + x[i];

/* The same under a time loop, which stays on the host: the host runs
   the two parts, in their order, once per step. */
#pragma loopy kernel
void shift_steps(int tsteps, int n, double x[restrict n],
                 double w[restrict n], double y[n])
{
  int t, i;
  for (t = 0; t < tsteps; t++)
    for (i = 0; i < n - 1; i++) {
      w[i] = y[i + 1] + x[i];
      x[i + 1] = 3.0 * y[i] + 0.5 * x[i + 1];
    }
}
// CHECK:       # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT:  # part 1 of 2 of 'shift_steps'
// CHECK-NEXT:  kernel shift_steps_0(
// CHECK:         x[i + 1] = 3 * y[i] + 0.5 * x[i + 1];
// CHECK:       # part 2 of 2 of 'shift_steps'
// CHECK-NEXT:  kernel shift_steps_1(
// CHECK:         w[i] = y[i + 1] + x[i];

// OCL: passed, 0 failed
