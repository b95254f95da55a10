// RUN: %loopy-extract %s | FileCheck %s
// Two loops side by side in a marked function run one after the other:
// each is a kernel of its own, in order.

#pragma loopy kernel
void init_then_scale(int n, const float *x, float *__restrict y,
                     float *__restrict z) {
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] + x[i];
}

// CHECK:      # part 1 of 2 of 'init_then_scale', one kernel per loop nest: the host runs the parts in this order
// CHECK-NEXT: kernel init_then_scale_0(n: index; x: in f32[n], y: out f32[n]) {
// CHECK:      # part 2 of 2 of 'init_then_scale', one kernel per loop nest: the host runs the parts in this order
// CHECK-NEXT: kernel init_then_scale_1(n: index; x: in f32[n], y: in f32[n], z: out f32[n]) {

// A loop inside a block of its own stands beside the next one as well.
#pragma loopy kernel
void in_a_block(int n, const float *x, float *__restrict y,
                float *__restrict z) {
  {
    for (int i = 0; i < n; i++)
      y[i] = x[i];
  }
  for (int i = 0; i < n; i++)
    z[i] = -x[i];
}

// CHECK:      # part 1 of 2 of 'in_a_block', one kernel per loop nest: the host runs the parts in this order
// CHECK-NEXT: kernel in_a_block_0(n: index; x: in f32[n], y: out f32[n]) {
// CHECK:      # part 2 of 2 of 'in_a_block', one kernel per loop nest: the host runs the parts in this order
// CHECK-NEXT: kernel in_a_block_1(n: index; x: in f32[n], z: out f32[n]) {
