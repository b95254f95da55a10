// RUN: %loopy-extract %s 2>&1 | FileCheck %s
// A nest whose lifted domain is empty for every parameter value is lifted
// with a warning at the loop that empties it.

#pragma loopy kernel
void never(int n, const float x[n], float y[restrict n]) {
  for (int i = 0; i < n; i++)
    for (int j = n; j < i; j++)
      y[i] += x[j];
}
// CHECK: empty-domain.c:[[@LINE-3]]:5: warning: the loop over 'j' runs no iterations for any value of the parameters (lifted as 0 <= i < n and n <= j < i), so the kernel does nothing; check the bounds of the loop
// CHECK-NOT: warning:
// CHECK: kernel never(
