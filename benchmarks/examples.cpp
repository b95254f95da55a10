//===- examples.cpp - The examples against the cuBLAS routines picked ------===//
#include "cases.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace bench {

namespace {

void check(cublasStatus_t S, const char *What) {
  if (S != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(What) + ": cuBLAS status " +
                             std::to_string(static_cast<int>(S)));
}

template <class T = float> T *ptr(BufferSet &B, const char *Name) {
  return reinterpret_cast<T *>(static_cast<uintptr_t>(B.at(Name).pointer()));
}

Case example(const std::string &Dir, std::string Name, std::string Size,
             std::string File, std::map<std::string, long> Params,
             std::string Reference, bool Quick) {
  Case C;
  C.Suite = "examples";
  C.Name = std::move(Name);
  C.Size = std::move(Size);
  C.File = Dir + "/" + File;
  C.Params = std::move(Params);
  C.Reference = std::move(Reference);
  C.Quick = Quick;
  return C;
}

} // namespace

std::vector<Case> exampleCases(const std::string &Dir) {
  std::vector<Case> Cs;
  auto Gemm = [&](std::string Size, long N, long M, long L, bool Quick) {
    Case C = example(Dir, "matmul f32", Size, "matmul.loop",
                     {{"n", N}, {"m", M}, {"l", L}}, "cublasSgemm", Quick);
    C.Budget = 128;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, L, &One, ptr(B, "b"),
                        M, ptr(B, "a"), L, &Zero, ptr(B, "c"), M),
            "cublasSgemm");
    };
    Cs.push_back(C);
  };
  Gemm("4096^3", 4096, 4096, 4096, true);
  Gemm("1000^3", 1000, 1000, 1000, false);
  Gemm("4097^3", 4097, 4097, 4097, false);
  Gemm("8192x8192x512", 8192, 8192, 512, false);
  // cublasGemmEx on operands of \p Type, f32 sums: bf16 operands with
  // CUBLAS_COMPUTE_32F, or f32 ones rounded to tf32 (loopy's allowTf32)
  // with CUBLAS_COMPUTE_32F_FAST_TF32.
  auto GemmEx = [&](std::string Name, std::string File, cudaDataType Type,
                    cublasComputeType_t Compute, bool Tf32) {
    long N = 4096;
    Case C = example(Dir, Name, "4096^3", File, {{"n", N}, {"m", N}, {"l", N}},
                     "cublasGemmEx " + Name.substr(Name.find(' ') + 1), false);
    C.Budget = 128;
    C.Tf32 = Tf32;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &One,
                         ptr<void>(B, "b"), Type, N, ptr<void>(B, "a"), Type, N,
                         &Zero, ptr<void>(B, "c"), CUDA_R_32F, N, Compute,
                         CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx");
    };
    Cs.push_back(C);
  };
  GemmEx("matmul bf16", "matmul_bf16.loop", CUDA_R_16BF, CUBLAS_COMPUTE_32F,
         false);
  GemmEx("matmul tf32", "matmul.loop", CUDA_R_32F,
         CUBLAS_COMPUTE_32F_FAST_TF32, true);
  {
    long N = 4096;
    Case C = example(Dir, "matmul f64", "4096^3", "matmul_f64.loop",
                     {{"n", N}, {"m", N}, {"l", N}}, "cublasDgemm", false);
    C.Budget = 128;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      double One = 1, Zero = 0;
      check(cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &One,
                        ptr<double>(B, "b"), N, ptr<double>(B, "a"), N, &Zero,
                        ptr<double>(B, "c"), N),
            "cublasDgemm");
    };
    Cs.push_back(C);
  }
  for (bool T : {false, true}) {
    long N = 16384;
    Case C = example(Dir, T ? "matvec_t f32" : "matvec f32", "16384^2",
                     T ? "matvec_t.loop" : "matvec.loop", {{"n", N}, {"m", N}},
                     "cublasSgemv", true);
    // Row-major a (n x m) is column-major aᵀ (m x n, leading dimension m).
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemv(H, T ? CUBLAS_OP_N : CUBLAS_OP_T, N, N, &One,
                        ptr(B, "a"), N, ptr(B, "x"), 1, &Zero, ptr(B, "y"), 1),
            "cublasSgemv");
    };
    Cs.push_back(C);
  }
  {
    long N = 16384;
    Case C = example(Dir, "transpose f32", "16384^2", "transpose.loop",
                     {{"n", N}, {"m", N}}, "cublasSgeam", true);
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_N, N, N, &One, ptr(B, "a"), N,
                        &Zero, ptr(B, "b"), N, ptr(B, "b"), N),
            "cublasSgeam");
    };
    Cs.push_back(C);
  }
  {
    long N = 1L << 28;
    // saxpy moves the same bytes: x read, y read and written.
    Case C = example(Dir, "lin_comb f32", "2^28", "lin_comb.loop", {{"n", N}},
                     "cublasSaxpy", true);
    C.Scalars = {{"a", 1.5}, {"b", -0.75}};
    // z := b·y, then saxpy adds a·x: the same z = a·x + b·y.
    C.PrepareReference = [=](BufferSet &B) {
      std::vector<float> Y(N);
      B.at("y").download(Y.data());
      for (float &F : Y)
        F *= -0.75f;
      B.at("z").upload(Y.data());
    };
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float A = 1.5f;
      check(cublasSaxpy(H, N, &A, ptr(B, "x"), 1, ptr(B, "z"), 1), "cublasSaxpy");
    };
    Cs.push_back(C);
  }
  {
    long N = 1L << 28;
    Case C = example(Dir, "dot f32", "2^28", "dot.loop", {{"n", N}},
                     "cublasSdot", true);
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      check(cublasSdot(H, N, ptr(B, "x"), 1, ptr(B, "y"), 1, ptr(B, "r")),
            "cublasSdot");
    };
    Cs.push_back(C);
  }
  {
    long E = 100000, M = 35;
    Case C = example(Dir, "batched 35x35 matmul", "1e5 x 35x35x35",
                     "batched_matmul.loop", {{"nelements", E}, {"m", M}},
                     "cublasSgemmStridedBatched", false);
    // c[e] = a · b[e], row-major: column-major c[e]ᵀ = b[e]ᵀ · aᵀ, a shared.
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, M, 35, 35,
                                      &One, ptr(B, "b"), M, 35 * M, ptr(B, "a"),
                                      35, 0, &Zero, ptr(B, "c"), M, 35 * M, E),
                 "cublasSgemmStridedBatched");
    };
    Cs.push_back(C);
  }
  for (Case &C : Cs)
    analyse(C);
  return Cs;
}

} // namespace bench
