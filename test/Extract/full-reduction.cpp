// RUN: %loopy-extract %s | FileCheck %s
// RUN: %loopy-extract %s | %loopyc - --emit=ir > /dev/null
// A dot product stored through a pointer: '*r' is a 0-dimensional array.
// C stores 0 when n = 0, the lifted kernel would store nothing, so it
// assumes n > 0.

#pragma loopy kernel
void dot(long n, const float *x, const float *y, float *__restrict r) {
  float s = 0;
  for (long i = 0; i < n; i++)
    s += x[i] * y[i];
  *r = s;
}

// CHECK-LABEL: kernel dot(n: index; x: in f32[n], y: in f32[n], r: out f32[]) {
// CHECK-NEXT:    assume n > 0;
// CHECK-NEXT:    domain { [i] : 0 <= i < n }
// CHECK-NEXT:    r[] = sum(i, x[i] * y[i]);
// CHECK-NEXT:  }
