// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A call of a function other than the math functions may have side
// effects.

float activate(float);

#pragma loopy kernel
void apply(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = activate(x[i]);
}

// CHECK: reject-call.cpp:[[@LINE-3]]:12: error: call to 'activate' cannot be lifted: it may have side effects; only the math functions sqrt, exp, log, sin, cos, tanh, pow, fma, fabs, abs, fmin, fmax, min and max can be called (in their float, double and std:: forms)
// CHECK-NEXT: {{^}}    y[i] = activate(x[i]);
// CHECK-NEXT: {{^}}           ^~~~~~~~~~~~~~
