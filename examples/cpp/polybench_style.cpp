// Three loop nests written as PolyBench/C writes its kernels: the indices and
// the temporaries are declared at the top of the function (C89), and a time
// loop stays on the host around the nest it repeats. The file builds and
// runs as it is (g++ -O2 -Wno-unknown-pragmas polybench_style.cpp);
// `loopyc polybench_style.cpp` lifts the three nests to .loop kernels.
#include <cstdio>
#include <vector>

// C = beta * C + alpha * A·B for row-major ni x nk and nk x nj matrices,
// with the dot product in a function-scope temporary.
#pragma loopy kernel
void gemm_c89(int ni, int nj, int nk, double alpha, double beta,
              double *__restrict C, const double *A, const double *B) {
  int i, j, k;
  double acc;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      acc = 0.0;
      for (k = 0; k < nk; k++)
        acc += A[i * nk + k] * B[k * nj + j];
      C[i * nj + j] = beta * C[i * nj + j] + alpha * acc;
    }
}

// y = alpha * A·x + beta * B·x, with both products accumulated in one loop
// and combined after it (lifted as one sum over j).
#pragma loopy kernel
void gesummv_c89(int n, double alpha, double beta, const double *A,
                 const double *B, const double *x, double *__restrict tmp,
                 double *__restrict y) {
  int i, j;
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < n; j++) {
      tmp[i] = A[i * n + j] * x[j] + tmp[i];
      y[i] = B[i * n + j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

// A three-point average of A into B, then B copied back, tsteps times. The
// marked nest is the kernel; the time loop and the copy stay on the host.
void jacobi_c89(int tsteps, int n, double *__restrict A,
                double *__restrict B) {
  int t, i;
  for (t = 0; t < tsteps; t++) {
#pragma loopy kernel(jacobi_step)
    for (i = 1; i < n - 1; i++)
      B[i] = 0.25 * A[i - 1] + 0.5 * A[i] + 0.25 * A[i + 1];
    for (i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
}

int main() {
  const int N = 8;
  std::vector<double> a(N * N, 1.0), b(N * N, 2.0), c(N * N, 1.0);
  gemm_c89(N, N, N, 0.5, 2.0, c.data(), a.data(), b.data());
  std::vector<double> t(N), g(N);
  gesummv_c89(N, 0.5, 2.0, a.data(), b.data(), c.data(), t.data(), g.data());
  std::vector<double> x(N, 0.0), y(N, 0.0);
  x[N / 2] = 1.0;
  jacobi_c89(4, N, x.data(), y.data());
  std::printf("c[0] = %g, g[0] = %g, x[%d] = %g\n", c[0], g[0], N / 2,
              x[N / 2]);
  return 0;
}
