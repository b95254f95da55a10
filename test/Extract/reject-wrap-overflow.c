// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Bounds and subscripts are lifted as integers: C arithmetic that wraps
// around or overflows 64 bits is rejected where it happens, not folded
// into a wrong kernel (such as 'f32[--9223372036854775808]').

#pragma loopy kernel
void down_to_zero(int n, const float *x, float *restrict y) {
  for (unsigned i = n; i >= 0; --i)
    y[i] = x[i];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-3]]:24: error: loop condition 'i >= 0' is always true for the unsigned index 'i': counting down, it wraps around to the largest value of its type instead of going below 0; use a signed index, or stop at the wrap-around with 'i != (unsigned int)-1'

#pragma loopy kernel
void wrapped_offset(int n, const float *x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i + (unsigned)-1];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-2]]:18: error: '(unsigned)-1' cannot be lifted: it is 4294967295 in C but -1 in the integers, since unsigned arithmetic wraps around; bounds and subscripts are lifted as integers that do not wrap: write it with a signed type that holds its value

#pragma loopy kernel
void wrapped_bound(int n, const float *x, float *restrict y) {
  for (int i = 0; i < 2u - 3u + n; i++)
    y[i] = x[i];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-3]]:23: error: '2u - 3u' cannot be lifted: it is 4294967295 in C but -1 in the integers, since unsigned arithmetic wraps around

#pragma loopy kernel
void smallest(int n, const float *x, float *restrict y) {
  for (long i = 0; i < n; i++)
    y[i] = x[i - (-9223372036854775807L - 1)];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-2]]:19: error: '-9223372036854775807L - 1' cannot be lifted: it is -9223372036854775808, outside -(2^63 - 1) .. 2^63 - 1, the values that lifted bounds and subscripts hold

#pragma loopy kernel
void folded(int n, const float *x, float *restrict y) {
  for (long i = 0; i < n; i++)
    y[i] = x[2 * (i + 9223372036854775807L)];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-2]]:14: error: '2 * (i + 9223372036854775807L)' cannot be lifted: its constant terms overflow a signed 64-bit integer

#pragma loopy kernel
void through_pointer(int n, const float *x, float *restrict y) {
  const float *p = x + 9223372036854775807L;
  for (long i = 0; i < n; i++)
    y[i] = p[i + 1];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-2]]:12: error: 'p[i + 1]' cannot be lifted: the constant terms of its subscript overflow a signed 64-bit integer

#pragma loopy kernel
void largest(int n, const float *x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[9223372036854775807L];
}
// CHECK: reject-wrap-overflow.c:[[@LINE-2]]:12: error: the size of 'x' does not fit in a signed 64-bit integer (its largest subscript is [n] -> { [(9223372036854775807)] }); keep subscripts below 2^63 - 1
