// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Shape and assume pragmas that do not fit their kernel.

#pragma loopy shape(q, n)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:21: error: '#pragma loopy shape' names 'q', which is not an array that this kernel accesses
#pragma loopy kernel
void unknown_array(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy shape(y, n)
#pragma loopy shape(y, n + 1)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:15: error: '#pragma loopy shape' is given twice for 'y'
#pragma loopy kernel
void shape_twice(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy shape(y, n * m)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:24: error: extent 'n * m' in '#pragma loopy shape' is not affine: use integer variables and constants with '+', '-' and multiplication by a constant, such as 'n', '2 * n + 1' or '64'
#pragma loopy kernel
void product_extent(int n, int m, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy shape(y, nn)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:24: error: 'nn' in '#pragma loopy shape' is not an integer variable or constant visible to the kernel
#pragma loopy kernel
void unknown_name(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy assume(n)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:15: error: '#pragma loopy assume' takes affine comparisons joined with '&&', such as 'k <= m && n >= 1'
#pragma loopy kernel
void not_a_comparison(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy shape(a, n, 8, 8)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:15: error: '#pragma loopy shape' gives 'a' 3 dimensions, but its type has 2 levels of subscripts
#pragma loopy kernel
void rank(int n, const float (*a)[8], float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = a[i][0];
}

#pragma loopy shape(a, n, 16)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:15: error: '#pragma loopy shape' gives dimension 1 of 'a' the extent '16', but its type says '8'
#pragma loopy kernel
void extent(int n, const float (*a)[8], float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = a[i][0];
}

#pragma loopy shape(a, n, m + 1)
// CHECK: reject-shape-pragmas.cpp:[[@LINE-1]]:15: error: extent 'm + 1' in '#pragma loopy shape' cannot split the one subscript of 'a': inner extents of a flat pointer must be products of parameters and constants
#pragma loopy kernel
void padded(int n, int m, const float *a, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = a[i * (m + 1)];
}
