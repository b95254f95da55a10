// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s --kernel=second | FileCheck --check-prefix=ONE %s
// RUN: not %loopy-extract %s --kernel=third 2>&1 | FileCheck --check-prefix=NONE %s
// Every marked nest of a file becomes one kernel of one .loop file, in
// source order; --kernel lifts one of them.

#pragma loopy kernel
void first(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1;
}

#pragma loopy kernel(second)
void anything(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 2;
}

// CHECK:      kernel first(
// CHECK:      {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: # lifted by loopy-extract from {{.*}}several-kernels.cpp:13
// CHECK-NEXT: kernel second(

// ONE-NOT:    kernel first
// ONE:        kernel second(

// NONE: loopy-extract: error: no kernel named 'third' in '{{.*}}several-kernels.cpp'
