// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A loop header without an increment or a condition, or one that steps
// several variables, is named for what it lacks; no message quotes an empty
// expression.
// CHECK-NOT: ''

#pragma loopy kernel
void no_increment(int n, float *__restrict y) {
  for (int i = 0; i < n;)
    y[i] = 0;
}
// CHECK: reject-loop-header-parts.cpp:[[@LINE-3]]:7: error: the loop over 'i' has no increment, so its index never changes in the loop header; step it there with '++i', 'i++', 'i += C' or 'i -= C' with a positive constant C

#pragma loopy kernel
void no_condition(int n, float *__restrict y) {
  for (int i = 0;; i++)
    y[i] = 0;
}
// CHECK: reject-loop-header-parts.cpp:[[@LINE-3]]:7: error: the loop over 'i' has no condition, so it has no upper bound; compare the index with affine bounds, such as 'i < n'

#pragma loopy kernel
void comma(int n, float *__restrict y) {
  int k = 0;
  for (int i = 0; i < n; i++, k++)
    y[i] = 0;
}
// CHECK: reject-loop-header-parts.cpp:[[@LINE-3]]:26: error: loop increment 'i++, k++' changes more than the index 'i'; a lifted loop steps only its own index, with '++i', 'i++', 'i += C' or 'i -= C'

#define STEP(i) i *= 2
#pragma loopy kernel
void macro_step(int n, float *__restrict y) {
  for (int i = 1; i < n; STEP(i))
    y[i] = 0;
}
// CHECK: reject-loop-header-parts.cpp:[[@LINE-3]]:{{[0-9]+}}: error: loop increment 'STEP(i)' cannot be lifted: use '++i', 'i++', 'i += C' or 'i -= C' with a positive constant C
