// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// RUN: %loopy-extract %s --kernel=fdtd_like_1 | %loopyc - --check=opencl --sample=1 --all-params 19 | FileCheck --check-prefix=OCL %s
// A time loop, written around the nests it repeats, stays on the host
// whether the function or the loop is marked: each nest of its body is a
// kernel, in order, and the comment above it says so. A loop whose index
// only selects what is read is a reduction and stays in the kernel.

#pragma loopy kernel
void jacobi_like(int tsteps, int n, double A[restrict n], double B[restrict n])
{
  int t, i;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}
// CHECK:      # lifted by loopy-extract from {{.*}}time-loop.c:14
// CHECK-NEXT: # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 1 of 2 of the body of the loop over 't' on line 13: the host runs the parts in this order
// CHECK-NEXT: kernel jacobi_like_0(n: index; A: in f64[n], B: out f64[n]) {
// CHECK-NEXT:   domain { [i] : 1 <= i < n - 1 }
// CHECK-NEXT:   B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
// CHECK:      # lifted by loopy-extract from {{.*}}time-loop.c:16
// CHECK-NEXT: # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 2 of 2 of the body of the loop over 't' on line 13: the host runs the parts in this order
// CHECK-NEXT: kernel jacobi_like_1(n: index; A: out f64[n], B: in f64[n]) {
// CHECK-NEXT:   domain { [i] : 1 <= i < n - 1 }
// CHECK-NEXT:   A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);

void heat_like(int tsteps, int n, double A[restrict n][n][n],
               double B[restrict n][n][n])
{
  int t, i, j, k;
#pragma loopy kernel(heat_like)
  for (t = 1; t <= tsteps; t++)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k]
                                + A[i][j - 1][k] + A[i][j][k + 1] + A[i][j][k - 1])
                     + 0.25 * A[i][j][k];
}
// CHECK:      # lifted by loopy-extract from {{.*}}time-loop.c:39
// CHECK-NEXT: # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: kernel heat_like(n: index; A: in f64[n, n, n], B: out f64[n, n, n]) {
// CHECK-NEXT:   domain { [i, j, k] : 1 <= i < n - 1 and 1 <= j < n - 1 and 1 <= k < n - 1 }

void fdtd_like(int tmax, int nx, int ny, double ex[restrict nx][ny],
               double ey[restrict nx][ny], double hz[restrict nx][ny],
               double fict[tmax])
{
  int t, i, j;
#pragma loopy assume(nx >= 1)
#pragma loopy kernel(fdtd_like)
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}
// CHECK:      # inside the loops over 't', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 1 of 4 of the body of the loop over 't' on line 58: the host runs the parts in this order
// CHECK-NEXT: kernel fdtd_like_0(tmax, nx, ny, t: index; ey: out f64[nx, ny],
// CHECK-NEXT:                    fict: in f64[tmax]) {
// CHECK-NEXT:   assume nx >= 1 and 0 <= t < tmax;
// CHECK-NEXT:   domain { [j] : 0 <= j < ny }
// CHECK-NEXT:   ey[0, j] = fict[t];
// CHECK:      # part 2 of 4
// CHECK-NEXT: kernel fdtd_like_1(
// CHECK:      # part 3 of 4
// CHECK-NEXT: kernel fdtd_like_2(
// CHECK:      # part 4 of 4
// CHECK-NEXT: kernel fdtd_like_3(

// The index of the outer loop selects the row that is read: a sum over it,
// in the kernel.
#pragma loopy kernel
void column_sums(int m, int n, double A[m][n], double y[restrict n])
{
  int k, i;
  for (k = 0; k < m; k++)
    for (i = 0; i < n; i++)
      y[i] += A[k][i];
}
// CHECK:      # lifted by loopy-extract from {{.*}}time-loop.c:88
// CHECK-NEXT: kernel column_sums(m, n: index; A: in f64[m, n], y: inout f64[n]) {
// CHECK-NEXT:   domain { [k, i] : 0 <= k < m and 0 <= i < n }
// CHECK-NEXT:   y[i] = y[i] + sum(k, A[k, i]);

// A time loop right inside a time loop stays on the host too; the comment
// names the loop whose body holds the parts.
#pragma loopy kernel
void two_time_loops(int ts, int ss, int n, double A[restrict n],
                    double B[restrict n])
{
  int t, s, i;
  for (t = 0; t < ts; t++)
    for (s = 0; s < ss; s++) {
      for (i = 0; i < n; i++)
        B[i] = 2.0 * A[i];
      for (i = 0; i < n; i++)
        A[i] = B[i];
    }
}
// CHECK:      # lifted by loopy-extract from {{.*}}time-loop.c:[[@LINE-6]]
// CHECK-NEXT: # inside the loops over 't', 's', which stay on the host: it runs once per iteration of them
// CHECK-NEXT: # part 1 of 2 of the body of the loop over 's' on line [[@LINE-9]]: the host runs the parts in this order
// CHECK-NEXT: kernel two_time_loops_0(n: index; A: in f64[n], B: out f64[n]) {
// CHECK:      # part 2 of 2 of the body of the loop over 's' on line [[@LINE-11]]: the host runs the parts in this order
// CHECK-NEXT: kernel two_time_loops_1(n: index; A: out f64[n], B: in f64[n]) {

// OCL: passed, 0 failed
