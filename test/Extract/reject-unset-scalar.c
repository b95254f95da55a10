// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// A function-scope scalar that nothing sets, read two loops deep: an
// error at the read (the extractor crashed on it before).

#pragma loopy kernel
void unset(int w, int h, float x[w][h], float z[restrict w][h])
{
  int i, j;
  float a;
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      z[i][j] = a * x[i][j];
}
// CHECK: reject-unset-scalar.c:[[@LINE-2]]:17: error: 'a' is read before it is assigned
// CHECK: 1 error generated.
