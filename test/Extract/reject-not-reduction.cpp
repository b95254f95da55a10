// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// An exponential moving average updates its accumulator in every
// iteration, but not by a sum, product, maximum or minimum.

#pragma loopy kernel
void ema(int n, const float *x, float *__restrict r) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s = 0.5f * s + x[i];
  *r = s;
}

// CHECK: reject-not-reduction.cpp:[[@LINE-4]]:5: error: 's' is updated in every iteration of the loop over 'i', but not as a reduction: only old + e, old - e, old * e, max(old, e) and min(old, e) can be lifted, with e free of 's' and of the type of 's'
