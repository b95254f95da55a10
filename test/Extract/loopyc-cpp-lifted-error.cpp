// RUN: not %loopyc %s 2>&1 | FileCheck %s
// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// loopy-extract runs loopyc's checks on what it lifts, so an error that
// loopyc finds in the lifted kernel points at the C line it came from,
// with the lifted statement in a note, and no kernel is printed. Here two
// iterations write the same element.

#pragma loopy kernel
void diagonal(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i + j] = 1;
}

// CHECK-NOT: <stdin>
// CHECK: loopyc-cpp-lifted-error.cpp:[[@LINE-4]]:7: error: write to 'y[i + j]' is not injective in the output indices: iterations (i = 0, j = 1) and (i = 1, j = 0) write the same element when n = 2, so their threads would race
// CHECK: loopyc-cpp-lifted-error.cpp:[[@LINE-5]]:7: note: in the lifted kernel, this is 'y[i + j] = 1;'
// CHECK-NOT: <stdin>
