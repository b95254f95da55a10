// Input of loopyc-without-extractor.test.
#pragma loopy kernel
void scale(int n, const float *x, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}
