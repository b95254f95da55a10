//===- reference.h - cuBLAS references written in row-major terms -*- C++ -*-===//
//
// A zoo kernel's "# bench: reference" line names the BLAS calls that do its
// work, in the row-major terms of the .loop file:
//
//   gemm(c, a, b, alpha=alpha, beta=beta); gemv(y, a^T, x)
//
// Each operand is an array of the kernels, `^T` for its transpose, and
// optionally a view `x[n1*n2, n3]` (dimensions that are products and sums
// of index parameters and integers) that reads the row-major array as a
// matrix of another shape. alpha and beta are numbers or scalar arguments
// (default 1 and 0). The routines, C += meaning C = ... + beta·C:
//
//   gemm(C, A, B)          C = alpha·op(A)·op(B) + beta·C
//   gemm_batched(C, A, B)  the same for each C[e] (3-index views); a
//                          2-index A or B is shared by every product
//   gemv(y, A, x)          y = alpha·op(A)·x + beta·y
//   ger(A, x, y)           A = A + alpha·x·yᵀ
//   axpy(y, x)             y = y + alpha·x
//   syrk(C, A)             C = alpha·A·Aᵀ + beta·C (A^T: Aᵀ·A), lower triangle
//   syr2k(C, A, B)         C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C, lower triangle
//   trmm(C, A, B)          C = alpha·op(A)·B, A lower-triangular
//   symm(C, A, B)          C = alpha·A·B + beta·C, A symmetric, lower stored
//
// A and B of gemm and gemm_batched may both be bf16 arrays (C f32): the
// products of the widened operands summed in f32, cublasGemmEx and
// cublasGemmStridedBatchedEx with CUBLAS_COMPUTE_32F.
//
// resolveReference turns the calls, at given sizes, into the column-major
// arguments of cuBLAS's single-precision routines (a row-major m×n matrix
// is a column-major n×m one). The same resolved calls run on the GPU
// (runCublas) and, in a plain implementation of the BLAS definitions, on
// the host (runHost), where loopy-bench --list checks them against the
// reference interpreter at small sizes.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_BENCHMARKS_REFERENCE_H
#define LOOPY_BENCHMARKS_REFERENCE_H

#include <cublas_v2.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bench {

struct RefOperand {
  std::string Array;
  bool Trans = false;
  /// Dimension expressions of a view; empty: the array's own shape.
  std::vector<std::string> View;
};

struct RefCall {
  std::string Routine;
  std::vector<RefOperand> Operands;
  std::string Alpha = "1", Beta = "0";
};

/// Parses a reference line; throws std::runtime_error saying what is wrong.
std::vector<RefCall> parseReference(const std::string &Text);

/// One cuBLAS call with its column-major arguments resolved. Operands name
/// the arrays; strides are 0 for a shared operand of a batched product.
struct BlasOp {
  enum class Routine { Gemm, GemmBatched, Gemv, Ger, Axpy, Syrk, Syr2k, Trmm, Symm };
  Routine R;
  bool TransA = false, TransB = false; // gemm, gemv (TransA), syrk/syr2k
  long M = 0, N = 0, K = 0, Batch = 1;
  std::string A, B, C; // gemv: A, x = B, y = C; ger: A = C, x = A, y = B
  long Lda = 0, Ldb = 0, Ldc = 0;
  long long StrideA = 0, StrideB = 0, StrideC = 0;
  float Alpha = 1, Beta = 0;
  /// gemm, gemm_batched: A and B are bf16, C f32, the sums f32.
  bool Bf16 = false;
};

/// What resolution needs to know about the kernels' arrays at the sizes.
struct ArrayShape {
  std::vector<long> Extents;
  bool RowMajorF32 = true; // contiguous row-major f32
  /// Contiguous row-major bf16: taken as both operands of a product
  /// (gemm, gemm_batched), which then sums in f32 (cublasGemmEx).
  bool RowMajorBf16 = false;
};

/// The calls at index parameter values \p Params and scalar values
/// \p Scalars; throws std::runtime_error where an array is unknown, a
/// shape does not match the routine, or a value is missing.
std::vector<BlasOp> resolveReference(const std::vector<RefCall> &Calls,
                                     const std::map<std::string, ArrayShape> &Arrays,
                                     const std::map<std::string, long> &Params,
                                     const std::map<std::string, double> &Scalars);

/// The reference's name in the table: "cublasSgemm", "2 cublasSgemv", ...
std::string referenceName(const std::vector<BlasOp> &Ops);

/// Where the calls find an array's data (device pointers or host memory).
using ArrayData = std::function<float *(const std::string &)>;

void runCublas(cublasHandle_t H, const BlasOp &Op, const ArrayData &Data);
void runHost(const BlasOp &Op, const ArrayData &Data);

} // namespace bench

#endif
