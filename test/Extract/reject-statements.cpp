// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Statements and expressions outside the model; each kernel fails alone.

#pragma loopy kernel
void skip_odd(int n, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    continue;
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: 'continue' cannot be lifted: it skips the rest of an iteration depending on the data; pick values with '?:' instead
  }
}

#pragma loopy kernel
void early(int n, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    return;
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: 'return' cannot be lifted: a kernel runs its loops to the end; store results through pointer arguments
  }
}

#pragma loopy kernel
void choose(int n, const int *c, float *__restrict y) {
  for (int i = 0; i < n; i++)
    switch (c[i]) {
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: 'switch' cannot be lifted: it is data-dependent control flow; compute the values and pick one with '?:'
    default:
      y[i] = 0;
    }
}

struct Scale {
  float factor;
};

#pragma loopy kernel
void member(int n, Scale s, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = s.factor * x[i];
// CHECK: reject-statements.cpp:[[@LINE-1]]:12: error: 's.factor' cannot be lifted: struct and class members cannot be lifted; copy the member into a variable before the loop nest
}

#pragma loopy kernel
void shift(int n, const int *x, int *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] << 1;
// CHECK: reject-statements.cpp:[[@LINE-1]]:12: error: 'x[i] << 1' cannot be lifted: bitwise operators and shifts have no .loop counterpart
}

#pragma loopy kernel
void chained(int n, float *__restrict y, float *__restrict z) {
  for (int i = 0; i < n; i++)
    y[i] = (z[i] = 1) + 1;
// CHECK: reject-statements.cpp:[[@LINE-1]]:13: error: 'z[i] = 1' cannot be lifted: an assignment inside an expression cannot be lifted; assign in a statement of its own
}

#pragma loopy kernel
void scratch(int n, float *__restrict y) {
  for (int i = 0; i < n; i++) {
    float t[2];
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: local array 't' cannot be lifted; a kernel keeps only scalars in local variables
    y[i] = 0;
  }
}

#pragma loopy kernel
void long_doubles(int n, long double *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: 'y' has type 'long double *__restrict', which has no .loop counterpart; use float, double, or an 8-, 16-, 32- or 64-bit integer type
}

#pragma loopy kernel
void uninitialized(int n, const float *x, float *__restrict y) {
  float acc;
  for (int i = 0; i < n; i++)
    acc += x[i];
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: 'acc' is read before it is assigned
  *y = acc;
}

#pragma loopy kernel
void infinite(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = -__builtin_inff();
// CHECK: reject-statements.cpp:[[@LINE-1]]:5: error: infinity can only start a max (-INFINITY) or min (INFINITY) accumulation; .loop has no infinite value
}

#pragma loopy kernel
void no_loop(float *__restrict y) {
// CHECK: reject-statements.cpp:[[@LINE-1]]:6: error: 'no_loop' has no 'for' loop to lift; a kernel is a nest of 'for' loops
  y[0] = 1;
}
