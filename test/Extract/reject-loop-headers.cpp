// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Loop headers the domain cannot be read from; each kernel fails alone.
#include <algorithm>

#pragma loopy kernel
void no_start(int n, float *__restrict y) {
  int i = 0;
  for (; i < n; i++)
    y[i] = 0;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:3: error: the loop must set its index to a start value, such as 'for (int i = 0; ...)' or 'for (i = 0; ...)'

#pragma loopy kernel
void float_index(int n, float *__restrict y) {
  for (float x = 0; x < n; x++)
    y[0] = x;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:14: error: loop index 'x' has type 'float'; use an integer type

#pragma loopy kernel
void scaled_index(int n, float *__restrict y) {
  for (int i = 0; 2 * i < n; i++)
    y[i] = 0;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:19: error: loop condition '2 * i < n' cannot be lifted: compare the index 'i' with affine bounds, such as 'i < n' or 'i <= n - 1' (several joined with '&&')

#pragma loopy kernel
void wrong_way(int n, float *__restrict y) {
  for (int i = 0; i > -n; i++)
    y[i] = 0;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:19: error: loop condition 'i > -n' must bound 'i' from above, since the loop counts up

#pragma loopy kernel
void doubling(int n, float *__restrict y) {
  for (int i = 1; i < n; i *= 2)
    y[i] = 0;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:26: error: loop increment 'i *= 2' cannot be lifted: use '++i', 'i++', 'i += C' or 'i -= C' with a positive constant C

#pragma loopy kernel
void strided_band(int n, float *__restrict y) {
  for (int i = std::max(0, n - 8); i < n; i += 2)
    y[i] = 0;
}
// CHECK: reject-loop-headers.cpp:[[@LINE-3]]:16: error: a loop with step 2 needs a single start value, not the maximum or minimum of several
