// RUN: not %loopyc %s 2>&1 | FileCheck %s
// An error that loopyc finds in the lifted kernel points into the lifted
// text, which a note names. Here two iterations write the same element.

#pragma loopy kernel
void diagonal(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i + j] = 1;
}

// CHECK: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: write to 'y[i + j]' is not injective in the output indices
// CHECK: loopyc: note: '<stdin>' is the .loop text lifted from '{{.*}}loopyc-cpp-lifted-error.cpp'; 'loopy-extract {{.*}}loopyc-cpp-lifted-error.cpp' prints it
