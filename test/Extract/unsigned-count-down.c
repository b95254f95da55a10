// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopyc %s --emit=ir > /dev/null
// An unsigned index counting down to the wrap-around, C's way to run down
// to 0, lifts to the domain it runs over: 0 .. n - 1, not the empty
// `4294967295 < i <= n - 1`.
#include <limits.h>

#pragma loopy kernel
void reverse(int n, const float *x, float *restrict y) {
  for (unsigned i = n - 1; i != (unsigned)-1; i--)
    y[i] = x[i];
}
// CHECK-LABEL: kernel reverse(
// CHECK: domain { [i] : 0 <= i <= n - 1 }

#pragma loopy kernel
void reverse_max(unsigned n, const float *x, float *restrict y) {
  for (unsigned i = n - 1; i != UINT_MAX; --i)
    y[i] = 2 * x[i];
}
// CHECK-LABEL: kernel reverse_max(
// CHECK: domain { [i] : 0 <= i <= n - 1 }

#pragma loopy kernel
void reverse_long(long n, const float *x, float *restrict y) {
  for (unsigned long i = n - 1; i != (unsigned long)-1; i -= 1)
    y[i] = x[i] + 1;
}
// CHECK-LABEL: kernel reverse_long(
// CHECK: domain { [i] : 0 <= i <= n - 1 }
