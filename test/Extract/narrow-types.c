// RUN: %loopy-extract %s | FileCheck %s
// RUN: %python %S/Inputs/c-check.py --loopyc %loopyc %s | FileCheck --check-prefix=C %s
// 8- and 16-bit integer arrays lift to i8, u8, i16 and u16. C computes
// with their values in int, and the lifted kernels say so with casts; a
// store wraps the int back to the element type, as C converts it. Each
// kernel is also run against the C (c-check.py) on values that cover the
// 8-bit types' whole range.

#pragma loopy kernel
void box_blur(int n, int m, const unsigned char src[n + 2][m + 2],
              unsigned char dst[restrict n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      dst[i][j] = (src[i][j] + src[i][j + 1] + src[i][j + 2] +
                   src[i + 1][j] + src[i + 1][j + 1] + src[i + 1][j + 2] +
                   src[i + 2][j] + src[i + 2][j + 1] + src[i + 2][j + 2]) / 9;
}

// CHECK-LABEL: kernel box_blur(n, m: index; src: in u8[n + 2, m + 2], dst: out u8[n, m]) {
// CHECK:         dst[i, j] = u8((i32(src[i, j]) + i32(src[i, j + 1])

#pragma loopy kernel
void wrap_add(int n, const signed char a[n], const signed char b[n],
              signed char c[restrict n], short d[restrict n]) {
  for (int i = 0; i < n; i++) {
    c[i] = a[i] + b[i];
    d[i] = a[i] * b[i] - 3;
  }
}

// CHECK-LABEL: kernel wrap_add(n: index; a: in i8[n], b: in i8[n], c: out i8[n],
// CHECK-NEXT:                  d: out i16[n]) {
// CHECK:         c[i] = i8(i32(a[i]) + i32(b[i]));
// CHECK-NEXT:    d[i] = i16(i32(a[i]) * i32(b[i]) - 3);

#pragma loopy kernel
void dot_rows(int n, int m, const short a[n][m], const unsigned short x[m],
              int y[restrict n]) {
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int j = 0; j < m; j++)
      s += a[i][j] * x[j];
    y[i] = s;
  }
}

// CHECK-LABEL: kernel dot_rows(n, m: index; a: in i16[n, m], x: in u16[m], y: out i32[n]) {
// CHECK:         y[i] = sum(j, i32(a[i, j]) * i32(x[j]));

#pragma loopy kernel
void threshold(int n, const unsigned char src[n], unsigned char mask[restrict n],
               double scaled[restrict n]) {
  for (int i = 0; i < n; i++) {
    mask[i] = src[i] > 128 ? 255 : 0;
    scaled[i] = src[i] / 255.0;
  }
}

// CHECK-LABEL: kernel threshold(n: index; src: in u8[n], mask: out u8[n], scaled: out f64[n]) {
// CHECK:         mask[i] = u8(select(i32(src[i]) > 128, 255, 0));
// CHECK-NEXT:    scaled[i] = f64(i32(src[i])) / 255;

// C: box_blur (n = 5, m = 7): 1 kernels, 1 launches match the C function
// C: box_blur (n = 6, m = 8): 1 kernels, 1 launches match the C function
// C: wrap_add (n = 5): 1 kernels, 1 launches match the C function
// C: dot_rows (n = 5, m = 7): 1 kernels, 1 launches match the C function
// C: threshold (n = 6): 1 kernels, 1 launches match the C function

// wrap_add's product wrapped to i8 before it is stored in i16 (C keeps
// its int) fails the check.
// RUN: not %python %S/Inputs/c-check.py --loopyc %loopyc %s --plant 'i16(i32(a[i]) * i32(b[i]) - 3)' 'i16(i8(i32(a[i]) * i32(b[i])) - 3)' | FileCheck --check-prefix=PLANT %s
// PLANT: wrap_add (n = 5): FAIL: d[{{[0-9]+}}] is {{.*}} in C, {{.*}} lifted
