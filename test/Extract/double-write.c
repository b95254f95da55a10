// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// RUN: %loopy-extract %s --kernel=cov_like | FileCheck --check-prefix=LIFT %s
// RUN: %loopy-extract %s --kernel=cov_like_1 | %loopyc - --check=opencl --sample=1 --all-params 13 | FileCheck --check-prefix=OCL %s
// Two statements of a nest that write one element: where isl proves they
// write the same value there (a symmetric matrix's diagonal), the later
// one goes to a kernel of its own whose bounds leave those iterations
// out; with another value, the nest is rejected where its statements
// share a temporary, so that they cannot be split into one kernel each
// (split-statements.c splits them where they do not). Written for this
// test.

#pragma loopy kernel
void cov_like(int m, int n, double data[n][m], double cov[restrict m][m])
{
  int i, j, k;
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[j][i] = cov[i][j];
    }
}
// LIFT:      # part 1 of 2 of 'cov_like', its loops over 'i', 'j', 'k' on line 16 distributed: the host runs the parts in this order
// LIFT-NEXT: kernel cov_like_0(m, n: index; data: in f64[n, m], cov: out f64[m, m]) {
// LIFT-NEXT:   assume n > 0;
// LIFT-NEXT:   domain { [i, j, k] : 0 <= i < m and i <= j < m and 0 <= k < n }
// LIFT-NEXT:   cov[i, j] = sum(k, data[k, i] * data[k, j]);
// LIFT:      # part 2 of 2 of 'cov_like', its loops over 'i', 'j', 'k' on line 16 distributed: the host runs the parts in this order
// LIFT-NEXT: kernel cov_like_1(m, n: index; data: in f64[n, m], cov: out f64[m, m]) {
// LIFT-NEXT:   assume n > 0;
// LIFT-NEXT:   domain { [i, j, k] : 0 <= i < m and i < j < m and 0 <= k < n }
// LIFT-NEXT:   cov[j, i] = sum(k, data[k, i] * data[k, j]);

#pragma loopy kernel
void mirror_other(int m, double a[m][m], double b[restrict m][m])
{
  int i, j;
  double t;
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      t = a[i][j];
      b[i][j] = t;
      b[j][i] = 2.0 * t;
    }
}
// CHECK: double-write.c:[[@LINE-3]]:7: error: 'b[j][i]' writes the element that 'b[i][j]' writes, with another value, at the iteration (i = 0, j = 0) with m = 1; a kernel has one writer per element and does not order its statements: write it in a loop of its own after this one
// CHECK: double-write.c:[[@LINE-5]]:7: note: 'b[i][j]' is written here

// OCL: passed, 0 failed
