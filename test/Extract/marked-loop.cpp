// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// A pragma before a loop inside a function lifts that nest alone; the
// variables it uses from the function become the kernel's arguments, and
// kernel(NAME) names it.

void run(float *__restrict out, const float *in, int rows, int cols) {
  float scale = 0.5f;
  out[0] = 1; // not part of the kernel
#pragma loopy kernel(halve)
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[r * cols + c] = scale * in[r * cols + c];
}

// CHECK:      # lifted by loopy-extract from {{.*}}marked-loop.cpp:10
// CHECK-NEXT: kernel halve(rows, cols: index; out_: out f32[rows, cols],
// CHECK-NEXT:              in_: in f32[rows, cols], scale: f32) {
// CHECK-NEXT:   domain { [r, c] : 0 <= r < rows and 0 <= c < cols }
// CHECK-NEXT:   out_[r, c] = scale * in_[r, c];
// CHECK-NEXT: }
