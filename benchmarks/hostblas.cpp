//===- hostblas.cpp - The BLAS definitions on the host --------------------===//
//
// What each cuBLAS call of reference.cpp computes, with the same
// column-major arguments, written from the BLAS definitions and
// accumulated in double: loopy-bench --list runs the zoo's references here
// against the reference interpreter, which checks the translation from the
// .loop file's row-major terms without a GPU.
//
//===----------------------------------------------------------------------===//
#include "reference.h"
#include "loopy/Support/Half.h"

#include <cstdint>
#include <utility>

namespace bench {

namespace {

/// Element (I, J) of the column-major matrix \p P with leading dimension
/// \p Ld, or of its transpose.
float at(const float *P, long Ld, bool Trans, long I, long J) {
  return Trans ? P[J + I * Ld] : P[I + J * Ld];
}

/// C = alpha·acc + beta·C, where C is not read when beta is 0 (as BLAS).
void store(float &C, float Alpha, double Acc, float Beta) {
  C = static_cast<float>(Alpha * Acc + (Beta == 0 ? 0.0 : double(Beta) * C));
}

} // namespace

// Right-side trmm and symm and the upper triangle, as runCublas calls them.
void runHost(const BlasOp &Op, const ArrayData &Data) {
  const float *A = Data(Op.A), *B = Op.B.empty() ? nullptr : Data(Op.B);
  float *C = Data(Op.C);
  switch (Op.R) {
  case BlasOp::Routine::Gemm:
  case BlasOp::Routine::GemmBatched: {
    // Element (I, J) of product E's operand P: bf16 operands widened.
    auto Elem = [&](const float *P, long long Stride, long Ld, bool Trans,
                    long E, long I, long J) {
      long Offset = E * Stride + (Trans ? J + I * Ld : I + J * Ld);
      if (!Op.Bf16)
        return P[Offset];
      return loopy::bf16ToFloat(reinterpret_cast<const uint16_t *>(P)[Offset]);
    };
    for (long E = 0; E < Op.Batch; ++E)
      for (long I = 0; I < Op.M; ++I)
        for (long J = 0; J < Op.N; ++J) {
          double Acc = 0;
          for (long L = 0; L < Op.K; ++L)
            Acc += double(Elem(A, Op.StrideA, Op.Lda, Op.TransA, E, I, L)) *
                   Elem(B, Op.StrideB, Op.Ldb, Op.TransB, E, L, J);
          store(C[E * Op.StrideC + I + J * Op.Ldc], Op.Alpha, Acc, Op.Beta);
        }
    return;
  }
  case BlasOp::Routine::Gemv: {
    // op(A) is m×n (N) or n×m (T).
    long Rows = Op.TransA ? Op.N : Op.M, Cols = Op.TransA ? Op.M : Op.N;
    for (long I = 0; I < Rows; ++I) {
      double Acc = 0;
      for (long J = 0; J < Cols; ++J)
        Acc += double(at(A, Op.Lda, Op.TransA, I, J)) * B[J];
      store(C[I], Op.Alpha, Acc, Op.Beta);
    }
    return;
  }
  case BlasOp::Routine::Ger:
    for (long I = 0; I < Op.M; ++I)
      for (long J = 0; J < Op.N; ++J)
        C[I + J * Op.Lda] += Op.Alpha * A[I] * B[J];
    return;
  case BlasOp::Routine::Axpy:
    for (long I = 0; I < Op.N; ++I)
      C[I] += Op.Alpha * A[I];
    return;
  case BlasOp::Routine::Syrk:
  case BlasOp::Routine::Syr2k:
    // N: op(X) = X (n×k); T: op(X) = Xᵀ. C = op(A)·op(B)ᵀ (+ the swap).
    for (long J = 0; J < Op.N; ++J)
      for (long I = 0; I <= J; ++I) {
        double Acc = 0;
        for (long L = 0; L < Op.K; ++L) {
          if (Op.R == BlasOp::Routine::Syrk) {
            Acc += double(at(A, Op.Lda, Op.TransA, I, L)) *
                   at(A, Op.Lda, Op.TransA, J, L);
            continue;
          }
          Acc += double(at(A, Op.Lda, Op.TransA, I, L)) *
                     at(B, Op.Ldb, Op.TransA, J, L) +
                 double(at(B, Op.Ldb, Op.TransA, I, L)) *
                     at(A, Op.Lda, Op.TransA, J, L);
        }
        store(C[I + J * Op.Ldc], Op.Alpha, Acc, Op.Beta);
      }
    return;
  case BlasOp::Routine::Trmm:
  case BlasOp::Routine::Symm: {
    // C (m×n) = alpha·B·op(A) (+ beta·C), A n×n with its upper triangle
    // stored: for trmm the lower one is zero, for symm it mirrors.
    auto Elem = [&](long I, long J) -> double {
      if (Op.R == BlasOp::Routine::Symm)
        return I <= J ? A[I + J * Op.Lda] : A[J + I * Op.Lda];
      if (Op.TransA)
        std::swap(I, J);
      return I <= J ? A[I + J * Op.Lda] : 0.0;
    };
    for (long I = 0; I < Op.M; ++I)
      for (long J = 0; J < Op.N; ++J) {
        double Acc = 0;
        for (long L = 0; L < Op.N; ++L)
          Acc += double(B[I + L * Op.Ldb]) * Elem(L, J);
        store(C[I + J * Op.Ldc], Op.Alpha, Acc,
              Op.R == BlasOp::Routine::Symm ? Op.Beta : 0.0f);
      }
    return;
  }
  }
}

} // namespace bench
