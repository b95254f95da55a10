// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Every error of a nest is reported in one run: a statement that fails is
// left out and the others are still lifted and checked, without follow-on
// errors about what the failed one would have set ('t' below). The errors
// that name a dependence between iterations come first: they are why the
// nest cannot be a kernel, whatever else stands in the way.

double weight(double v);

#pragma loopy kernel
void kernel_several(int n, double A[n][n], const double *x,
                    double *restrict y, double *restrict z, double *restrict u)
{
  int i, j;
  double t;
  for (i = 0; i < n; i++) {
    t = weight(x[i]);
    y[i] = 2 * t;
    if (x[i] > 0)
      y[i] = 0;
    for (j = 0; j < n; j++)
      z[i] = A[i][j];
    u[i] = u[i + 1] + t;
    u[i] = u[i + 1] + 1;
  }
}
// CHECK: reject-several-errors.c:24:12: error: 'u[i + 1]' reads 'u' at another element than 'u[i]'
// CHECK: reject-several-errors.c:17:9: error: call to 'weight' cannot be lifted
// CHECK-NOT: 't'
// CHECK: reject-several-errors.c:19:9: error: data-dependent control flow cannot be lifted: the condition reads 'x[i]'
// CHECK: reject-several-errors.c:22:7: error: 'z[i]' is assigned in every iteration of the loop over 'j' but not accumulated

// An index whose value after the loop is read by the code after the nest
// is reported, and the nest is still lifted and checked.
void index_live_and_more(int n, const double *x, double *restrict y,
                         int *last)
{
  int i;
#pragma loopy kernel(index_live_and_more)
  for (i = 0; i < n; i++)
    y[i] = weight(x[i]);
  *last = i;
}
// CHECK: reject-several-errors.c:[[@LINE-2]]:11: error: 'i' is read here, outside the loops over it
// CHECK: reject-several-errors.c:[[@LINE-4]]:12: error: call to 'weight' cannot be lifted

// A loop header that cannot be lifted leaves its loop without bounds; the
// statements and the headers of the loops inside are still checked.
#pragma loopy kernel
void bad_headers(int n, double A[n][n], double *restrict y, double *restrict z)
{
  for (int i = 0; i * i < n; i++) {
    y[i] = weight(A[i][0]);
    for (int j = 0; j < n; j *= 2)
      z[i] += A[i][j];
  }
}
// CHECK: reject-several-errors.c:[[@LINE-6]]:19: error: loop bound 'i * i' is not affine
// CHECK: reject-several-errors.c:[[@LINE-6]]:12: error: call to 'weight' cannot be lifted
// CHECK: reject-several-errors.c:[[@LINE-6]]:28: error: loop increment 'j *= 2' cannot be lifted
// CHECK: 9 errors generated.
