// Three loop nests in plain C++, marked for loopy-extract. The file builds
// and runs as it is (the pragmas are ignored by other compilers:
// g++ -O2 -Wno-unknown-pragmas kernels.cpp); `loopyc kernels.cpp` lifts the
// three nests to .loop kernels and compiles them to CUDA instead.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

// C = A·B for row-major n x l and l x m matrices.
#pragma loopy kernel
void matmul(int n, int m, int l, const float *a, const float *b,
            float *__restrict c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < l; ++k)
        acc += a[i * l + k] * b[k * m + j];
      c[i * m + j] = acc;
    }
}

// A 3 x 3 box blur of the interior of an image, marked inside a function
// that does more than the kernel.
void blur(const std::vector<float> &image, std::vector<float> &out, int rows,
          int cols) {
  const float *in = image.data();
  float *__restrict dst = out.data();
  std::fill(out.begin(), out.end(), 0.0f);
#pragma loopy kernel(blur3x3)
  for (int r = 1; r < rows - 1; ++r)
    for (int c = 1; c < cols - 1; ++c) {
      float s = 0.0f;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          s += in[(r + dr) * cols + (c + dc)];
      dst[r * cols + c] = s / 9.0f;
    }
}

// The largest absolute value of each row.
#pragma loopy kernel
void row_abs_max(int n, int m, const double *a, double *__restrict r) {
  for (int i = 0; i < n; ++i) {
    double best = 0.0;
    for (int j = 0; j < m; ++j)
      best = std::max(best, std::fabs(a[i * m + j]));
    r[i] = best;
  }
}

int main() {
  const int N = 4;
  std::vector<float> a(N * N, 1.0f), b(N * N, 2.0f), c(N * N);
  matmul(N, N, N, a.data(), b.data(), c.data());
  std::vector<float> blurred(N * N);
  blur(c, blurred, N, N);
  std::vector<double> d(N * N, -3.0), r(N);
  row_abs_max(N, N, d.data(), r.data());
  std::printf("c[0] = %g, blurred[5] = %g, r[0] = %g\n", c[0], blurred[5], r[0]);
  return 0;
}
