// RUN: %loopy-extract %s --kernel=scale | FileCheck %s
// RUN: %loopy-extract %s --kernel=renamed | FileCheck --check-prefix=RENAMED %s
// RUN: %loopy-extract %s --kernel=scale | %loopyc - --emit=ir > /dev/null
// RUN: not %loopy-extract %s 2>&1 | FileCheck --check-prefix=ERR %s
// .loop names are ASCII. Arguments and indices named with universal
// character names or UTF-8 are spelled with their code points; a kernel
// name, which the caller looks up, is not renamed behind their back.

#pragma loopy kernel
void scale(int n, const float *x\u00e9, float *restrict y) {
  for (int \u00e0 = 0; \u00e0 < n; \u00e0++)
    y[\u00e0] = 2 * x\u00e9[\u00e0];
}
// CHECK: kernel scale(n: index; x_u00E9: in f32[n], y: out f32[n]) {
// CHECK-NEXT: domain { [_u00E0] : 0 <= _u00E0 < n }
// CHECK-NEXT: y[_u00E0] = 2 * x_u00E9[_u00E0];

#pragma loopy kernel
void caf\u00e9(int n, const float *x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
// ERR: non-ascii-names.c:[[@LINE-4]]:6: error: kernel name 'café' is not ASCII, but .loop names are made of ASCII letters, digits and '_'; name the kernel with '#pragma loopy kernel(NAME)'

#pragma loopy kernel(renamed)
void cr\u00e8me(int n, const float *x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
// RENAMED: kernel renamed(
