//===- reference.cpp - cuBLAS references written in row-major terms -------===//
#include "reference.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace bench {

namespace {

[[noreturn]] void fail(const std::string &Message) {
  throw std::runtime_error(Message);
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? "" : S.substr(B, E - B + 1);
}

/// \p S split at the \p Sep characters outside brackets and parentheses.
std::vector<std::string> splitTop(const std::string &S, char Sep) {
  std::vector<std::string> Parts(1);
  int Depth = 0;
  for (char C : S) {
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (C == Sep && Depth == 0)
      Parts.emplace_back();
    else
      Parts.back() += C;
  }
  for (std::string &P : Parts)
    P = trim(P);
  return Parts;
}

bool isName(const std::string &S) {
  return !S.empty() && (std::isalpha(S[0]) || S[0] == '_') &&
         std::all_of(S.begin(), S.end(),
                     [](char C) { return std::isalnum(C) || C == '_'; });
}

RefOperand parseOperand(const std::string &Text) {
  RefOperand Op;
  std::string S = Text;
  if (S.size() > 2 && S.compare(S.size() - 2, 2, "^T") == 0) {
    Op.Trans = true;
    S = trim(S.substr(0, S.size() - 2));
  }
  size_t Open = S.find('[');
  Op.Array = trim(S.substr(0, Open));
  if (Open != std::string::npos) {
    if (S.back() != ']')
      fail("operand '" + Text + "': a view ends with ']'");
    Op.View = splitTop(S.substr(Open + 1, S.size() - Open - 2), ',');
  }
  if (!isName(Op.Array))
    fail("operand '" + Text + "' is not an array name, a view such as "
         "x[n1*n2, n3] or either followed by ^T");
  return Op;
}

/// Evaluates +, -, * and parentheses over integers and index parameters.
class DimParser {
public:
  DimParser(const std::string &Text, const std::map<std::string, long> &Params)
      : Text(Text), Params(Params) {}

  long parse() {
    long V = sum();
    skipSpace();
    if (Pos != Text.size())
      fail("view dimension '" + Text + "': unexpected '" + Text.substr(Pos) + "'");
    return V;
  }

private:
  void skipSpace() {
    while (Pos < Text.size() && std::isspace(Text[Pos]))
      ++Pos;
  }
  bool eat(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  long sum() {
    long V = product();
    for (;;) {
      if (eat('+'))
        V += product();
      else if (eat('-'))
        V -= product();
      else
        return V;
    }
  }
  long product() {
    long V = atom();
    while (eat('*'))
      V *= atom();
    return V;
  }
  long atom() {
    if (eat('(')) {
      long V = sum();
      if (!eat(')'))
        fail("view dimension '" + Text + "': missing ')'");
      return V;
    }
    skipSpace();
    size_t B = Pos;
    while (Pos < Text.size() && (std::isalnum(Text[Pos]) || Text[Pos] == '_'))
      ++Pos;
    std::string Word = Text.substr(B, Pos - B);
    if (Word.empty())
      fail("view dimension '" + Text + "': expected a number or a parameter");
    if (std::isdigit(Word[0]))
      return std::stol(Word);
    auto It = Params.find(Word);
    if (It == Params.end())
      fail("view dimension '" + Text + "': no index parameter '" + Word + "'");
    return It->second;
  }

  const std::string &Text;
  const std::map<std::string, long> &Params;
  size_t Pos = 0;
};

/// An operand read as a (batch of) row-major matrices.
struct Matrix {
  std::string Array;
  bool Trans = false;
  long Batch = 0; // 0: not batched
  long Rows = 0, Cols = 0;
  /// Rows and columns of op(matrix).
  long opRows() const { return Trans ? Cols : Rows; }
  long opCols() const { return Trans ? Rows : Cols; }
};

class Resolver {
public:
  Resolver(const std::map<std::string, ArrayShape> &Arrays,
           const std::map<std::string, long> &Params,
           const std::map<std::string, double> &Scalars)
      : Arrays(Arrays), Params(Params), Scalars(Scalars) {}

  BlasOp resolve(const RefCall &C) {
    Call = &C;
    BlasOp Op;
    Op.Alpha = value(C.Alpha);
    Op.Beta = value(C.Beta);
    const std::string &R = C.Routine;
    if (R == "gemm")
      gemm(Op, false);
    else if (R == "gemm_batched")
      gemm(Op, true);
    else if (R == "gemv")
      gemv(Op);
    else if (R == "ger")
      ger(Op);
    else if (R == "axpy")
      axpy(Op);
    else if (R == "syrk" || R == "syr2k")
      rankUpdate(Op, R == "syr2k");
    else if (R == "trmm" || R == "symm")
      triangular(Op, R == "symm");
    else
      fail("unknown routine '" + R + "'; expected gemm, gemm_batched, gemv, "
           "ger, axpy, syrk, syr2k, trmm or symm");
    return Op;
  }

private:
  [[noreturn]] void error(const std::string &Message) const {
    fail(Call->Routine + ": " + Message);
  }

  float value(const std::string &Text) const {
    if (isName(Text)) {
      auto It = Scalars.find(Text);
      if (It == Scalars.end())
        error("no value for scalar '" + Text + "': give it in '# bench: scalars'");
      return static_cast<float>(It->second);
    }
    try {
      return std::stof(Text);
    } catch (std::exception &) {
      error("'" + Text + "' is neither a number nor a scalar");
    }
  }

  void expectOperands(size_t N) const {
    if (Call->Operands.size() != N)
      error("takes " + std::to_string(N) + " operands, not " +
            std::to_string(Call->Operands.size()));
  }

  /// The extents of operand \p I: its view or its array's shape.
  std::vector<long> extents(size_t I, bool MayBeBf16 = false) const {
    const RefOperand &Op = Call->Operands[I];
    auto It = Arrays.find(Op.Array);
    if (It == Arrays.end())
      error("no array '" + Op.Array + "' in the kernels");
    if (!It->second.RowMajorF32 && !(MayBeBf16 && It->second.RowMajorBf16))
      error("array '" + Op.Array + "' is not a contiguous row-major f32 array" +
            (It->second.RowMajorBf16 ? " (bf16 only as an operand of gemm "
                                       "or gemm_batched)"
                                     : ""));
    long Elements = 1;
    for (long E : It->second.Extents)
      Elements *= E;
    if (Op.View.empty())
      return It->second.Extents;
    std::vector<long> V;
    long ViewElements = 1;
    for (const std::string &D : Op.View) {
      V.push_back(DimParser(D, Params).parse());
      ViewElements *= V.back();
    }
    if (ViewElements != Elements)
      error("the view of '" + Op.Array + "' has " + std::to_string(ViewElements) +
            " elements, the array " + std::to_string(Elements));
    return V;
  }

  bool bf16(size_t I) const {
    auto It = Arrays.find(Call->Operands[I].Array);
    return It != Arrays.end() && It->second.RowMajorBf16;
  }

  Matrix matrix(size_t I, bool MayBatch, bool MayBeBf16 = false) const {
    std::vector<long> E = extents(I, MayBeBf16);
    Matrix M;
    M.Array = Call->Operands[I].Array;
    M.Trans = Call->Operands[I].Trans;
    if (E.size() == 3 && MayBatch) {
      M.Batch = E[0];
      E.erase(E.begin());
    }
    if (E.size() != 2)
      error("operand '" + M.Array + "' has " + std::to_string(E.size()) +
            " dimensions; give a matrix view such as " + M.Array + "[n1*n2, n3]");
    M.Rows = E[0];
    M.Cols = E[1];
    return M;
  }

  long vector(size_t I) const {
    std::vector<long> E = extents(I);
    long N = 1;
    for (long X : E)
      N *= X;
    if (Call->Operands[I].Trans)
      error("vector '" + Call->Operands[I].Array + "' cannot be transposed");
    return N;
  }

  void same(long A, long B, const std::string &What) const {
    if (A != B)
      error(What + " do not match: " + std::to_string(A) + " and " +
            std::to_string(B));
  }

  void notTransposed(const Matrix &M) const {
    if (M.Trans)
      error("'" + M.Array + "' cannot be transposed here");
  }

  // Row-major C = op(A)·op(B) is column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: the
  // operands swap, each keeping its transposition flag, and every leading
  // dimension is the row length of the stored matrix.
  void gemm(BlasOp &Op, bool Batched) {
    expectOperands(3);
    Matrix C = matrix(0, Batched), A = matrix(1, Batched, true),
           B = matrix(2, Batched, true);
    if (bf16(1) != bf16(2))
      error("the operands are both bf16 or both f32");
    Op.Bf16 = bf16(1);
    notTransposed(C);
    same(A.opCols(), B.opRows(), "the inner dimensions of op(A) and op(B)");
    same(C.Rows, A.opRows(), "the rows of C and op(A)");
    same(C.Cols, B.opCols(), "the columns of C and op(B)");
    Op.R = Batched ? BlasOp::Routine::GemmBatched : BlasOp::Routine::Gemm;
    Op.TransA = B.Trans;
    Op.TransB = A.Trans;
    Op.M = C.Cols;
    Op.N = C.Rows;
    Op.K = A.opCols();
    Op.A = B.Array;
    Op.Lda = B.Cols;
    Op.B = A.Array;
    Op.Ldb = A.Cols;
    Op.C = C.Array;
    Op.Ldc = C.Cols;
    if (!Batched)
      return;
    if (!C.Batch)
      error("C of a batched product has three dimensions, the batch first");
    for (const Matrix *M : {&A, &B})
      if (M->Batch && M->Batch != C.Batch)
        error("'" + M->Array + "' has a batch of " + std::to_string(M->Batch) +
              ", C of " + std::to_string(C.Batch));
    Op.Batch = C.Batch;
    Op.StrideA = B.Batch ? B.Rows * B.Cols : 0;
    Op.StrideB = A.Batch ? A.Rows * A.Cols : 0;
    Op.StrideC = C.Rows * C.Cols;
  }

  // Row-major y = op(A)·x: the stored column-major matrix is Aᵀ, so the
  // flag flips; m and n are the column-major rows and columns.
  void gemv(BlasOp &Op) {
    expectOperands(3);
    Matrix A = matrix(1, false);
    long Y = vector(0), X = vector(2);
    same(Y, A.opRows(), "the lengths of y and the rows of op(A)");
    same(X, A.opCols(), "the lengths of x and the columns of op(A)");
    Op.R = BlasOp::Routine::Gemv;
    Op.TransA = !A.Trans;
    Op.M = A.Cols;
    Op.N = A.Rows;
    Op.Lda = A.Cols;
    Op.A = A.Array;
    Op.B = Call->Operands[2].Array;
    Op.C = Call->Operands[0].Array;
  }

  // Row-major A += x·yᵀ is column-major Aᵀ += y·xᵀ.
  void ger(BlasOp &Op) {
    expectOperands(3);
    Matrix A = matrix(0, false);
    notTransposed(A);
    same(vector(1), A.Rows, "the length of x and the rows of A");
    same(vector(2), A.Cols, "the length of y and the columns of A");
    Op.R = BlasOp::Routine::Ger;
    Op.M = A.Cols;
    Op.N = A.Rows;
    Op.Lda = A.Cols;
    Op.C = A.Array;
    Op.A = Call->Operands[2].Array;
    Op.B = Call->Operands[1].Array;
  }

  void axpy(BlasOp &Op) {
    expectOperands(2);
    same(vector(0), vector(1), "the lengths of y and x");
    Op.R = BlasOp::Routine::Axpy;
    Op.N = vector(0);
    Op.C = Call->Operands[0].Array;
    Op.A = Call->Operands[1].Array;
  }

  // The lower triangle of row-major C is the upper triangle of the stored
  // column-major Cᵀ, which is the same symmetric matrix. Row-major A·Aᵀ,
  // with A stored as column-major Aᵀ, is cuBLAS's Aᵀ·A (trans T).
  void rankUpdate(BlasOp &Op, bool TwoK) {
    expectOperands(TwoK ? 3 : 2);
    Matrix C = matrix(0, false), A = matrix(1, false);
    notTransposed(C);
    same(C.Rows, C.Cols, "the rows and columns of C");
    same(C.Rows, A.opRows(), "the rows of C and op(A)");
    if (TwoK) {
      Matrix B = matrix(2, false);
      notTransposed(A);
      notTransposed(B);
      same(B.Rows, A.Rows, "the rows of A and B");
      same(B.Cols, A.Cols, "the columns of A and B");
      Op.B = B.Array;
      Op.Ldb = B.Cols;
    }
    Op.R = TwoK ? BlasOp::Routine::Syr2k : BlasOp::Routine::Syrk;
    Op.TransA = !A.Trans;
    Op.N = C.Rows;
    Op.K = A.opCols();
    Op.A = A.Array;
    Op.Lda = A.Cols;
    Op.C = C.Array;
    Op.Ldc = C.Cols;
  }

  // Row-major C = op(A)·B is column-major Cᵀ = Bᵀ·op(A)ᵀ: A on the right,
  // its lower triangle the upper one of the stored Aᵀ, and the stored Aᵀ
  // is op(A)ᵀ exactly when op is the identity (trans N).
  void triangular(BlasOp &Op, bool Symmetric) {
    expectOperands(3);
    Matrix C = matrix(0, false), A = matrix(1, false), B = matrix(2, false);
    notTransposed(C);
    notTransposed(B);
    if (Symmetric)
      notTransposed(A);
    same(A.Rows, A.Cols, "the rows and columns of A");
    same(C.Rows, A.Rows, "the rows of C and A");
    same(B.Rows, A.Rows, "the rows of B and A");
    same(C.Cols, B.Cols, "the columns of C and B");
    Op.R = Symmetric ? BlasOp::Routine::Symm : BlasOp::Routine::Trmm;
    Op.TransA = A.Trans;
    Op.M = C.Cols;
    Op.N = C.Rows;
    Op.A = A.Array;
    Op.Lda = A.Cols;
    Op.B = B.Array;
    Op.Ldb = B.Cols;
    Op.C = C.Array;
    Op.Ldc = C.Cols;
  }

  const std::map<std::string, ArrayShape> &Arrays;
  const std::map<std::string, long> &Params;
  const std::map<std::string, double> &Scalars;
  const RefCall *Call = nullptr;
};

const char *routineName(BlasOp::Routine R, bool Bf16 = false) {
  switch (R) {
  case BlasOp::Routine::Gemm:
    return Bf16 ? "cublasGemmEx" : "cublasSgemm";
  case BlasOp::Routine::GemmBatched:
    return Bf16 ? "cublasGemmStridedBatchedEx" : "cublasSgemmStridedBatched";
  case BlasOp::Routine::Gemv:
    return "cublasSgemv";
  case BlasOp::Routine::Ger:
    return "cublasSger";
  case BlasOp::Routine::Axpy:
    return "cublasSaxpy";
  case BlasOp::Routine::Syrk:
    return "cublasSsyrk";
  case BlasOp::Routine::Syr2k:
    return "cublasSsyr2k";
  case BlasOp::Routine::Trmm:
    return "cublasStrmm";
  case BlasOp::Routine::Symm:
    return "cublasSsymm";
  }
  return "?";
}

void check(cublasStatus_t S, BlasOp::Routine R, bool Bf16 = false) {
  if (S != CUBLAS_STATUS_SUCCESS)
    fail(std::string(routineName(R, Bf16)) + ": cuBLAS status " +
         std::to_string(static_cast<int>(S)));
}

cublasOperation_t op(bool Trans) { return Trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

} // namespace

std::vector<RefCall> parseReference(const std::string &Text) {
  std::vector<RefCall> Calls;
  for (const std::string &Part : splitTop(Text, ';')) {
    size_t Open = Part.find('(');
    if (Open == std::string::npos || Part.back() != ')')
      fail("reference call '" + Part + "' is not of the form routine(operands)");
    RefCall C;
    C.Routine = trim(Part.substr(0, Open));
    for (const std::string &Arg :
         splitTop(Part.substr(Open + 1, Part.size() - Open - 2), ',')) {
      size_t Eq = Arg.find('=');
      if (Eq == std::string::npos) {
        C.Operands.push_back(parseOperand(Arg));
        continue;
      }
      std::string Key = trim(Arg.substr(0, Eq)), Value = trim(Arg.substr(Eq + 1));
      if (Key == "alpha")
        C.Alpha = Value;
      else if (Key == "beta")
        C.Beta = Value;
      else
        fail("reference call '" + Part + "': unknown argument '" + Key +
             "'; expected alpha or beta");
    }
    Calls.push_back(std::move(C));
  }
  return Calls;
}

std::vector<BlasOp> resolveReference(const std::vector<RefCall> &Calls,
                                     const std::map<std::string, ArrayShape> &Arrays,
                                     const std::map<std::string, long> &Params,
                                     const std::map<std::string, double> &Scalars) {
  Resolver R(Arrays, Params, Scalars);
  std::vector<BlasOp> Ops;
  for (const RefCall &C : Calls)
    Ops.push_back(R.resolve(C));
  return Ops;
}

std::string referenceName(const std::vector<BlasOp> &Ops) {
  std::vector<std::pair<std::string, int>> Counts;
  for (const BlasOp &Op : Ops) {
    std::string N = routineName(Op.R, Op.Bf16);
    auto It = std::find_if(Counts.begin(), Counts.end(),
                           [&](const auto &P) { return P.first == N; });
    if (It == Counts.end())
      Counts.emplace_back(N, 1);
    else
      ++It->second;
  }
  std::string S;
  for (const auto &[N, Count] : Counts)
    S += (S.empty() ? "" : " + ") + (Count > 1 ? std::to_string(Count) + " " : "") + N;
  return S;
}

void runCublas(cublasHandle_t H, const BlasOp &Op, const ArrayData &Data) {
  const float *A = Data(Op.A), *B = Op.B.empty() ? nullptr : Data(Op.B);
  float *C = Data(Op.C);
  if (Op.Bf16 && Op.R == BlasOp::Routine::Gemm)
    return check(cublasGemmEx(H, op(Op.TransA), op(Op.TransB), Op.M, Op.N,
                              Op.K, &Op.Alpha, A, CUDA_R_16BF, Op.Lda, B,
                              CUDA_R_16BF, Op.Ldb, &Op.Beta, C, CUDA_R_32F,
                              Op.Ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 Op.R, true);
  if (Op.Bf16)
    return check(cublasGemmStridedBatchedEx(
                     H, op(Op.TransA), op(Op.TransB), Op.M, Op.N, Op.K,
                     &Op.Alpha, A, CUDA_R_16BF, Op.Lda, Op.StrideA, B,
                     CUDA_R_16BF, Op.Ldb, Op.StrideB, &Op.Beta, C, CUDA_R_32F,
                     Op.Ldc, Op.StrideC, Op.Batch, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT),
                 Op.R, true);
  switch (Op.R) {
  case BlasOp::Routine::Gemm:
    return check(cublasSgemm(H, op(Op.TransA), op(Op.TransB), Op.M, Op.N, Op.K,
                             &Op.Alpha, A, Op.Lda, B, Op.Ldb, &Op.Beta, C, Op.Ldc),
                 Op.R);
  case BlasOp::Routine::GemmBatched:
    return check(cublasSgemmStridedBatched(
                     H, op(Op.TransA), op(Op.TransB), Op.M, Op.N, Op.K, &Op.Alpha,
                     A, Op.Lda, Op.StrideA, B, Op.Ldb, Op.StrideB, &Op.Beta, C,
                     Op.Ldc, Op.StrideC, Op.Batch),
                 Op.R);
  case BlasOp::Routine::Gemv:
    return check(cublasSgemv(H, op(Op.TransA), Op.M, Op.N, &Op.Alpha, A, Op.Lda,
                             B, 1, &Op.Beta, C, 1),
                 Op.R);
  case BlasOp::Routine::Ger:
    return check(cublasSger(H, Op.M, Op.N, &Op.Alpha, A, 1, B, 1, C, Op.Lda),
                 Op.R);
  case BlasOp::Routine::Axpy:
    return check(cublasSaxpy(H, Op.N, &Op.Alpha, A, 1, C, 1), Op.R);
  case BlasOp::Routine::Syrk:
    return check(cublasSsyrk(H, CUBLAS_FILL_MODE_UPPER, op(Op.TransA), Op.N,
                             Op.K, &Op.Alpha, A, Op.Lda, &Op.Beta, C, Op.Ldc),
                 Op.R);
  case BlasOp::Routine::Syr2k:
    return check(cublasSsyr2k(H, CUBLAS_FILL_MODE_UPPER, op(Op.TransA), Op.N,
                              Op.K, &Op.Alpha, A, Op.Lda, B, Op.Ldb, &Op.Beta,
                              C, Op.Ldc),
                 Op.R);
  case BlasOp::Routine::Trmm:
    return check(cublasStrmm(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                             op(Op.TransA), CUBLAS_DIAG_NON_UNIT, Op.M, Op.N,
                             &Op.Alpha, A, Op.Lda, B, Op.Ldb, C, Op.Ldc),
                 Op.R);
  case BlasOp::Routine::Symm:
    return check(cublasSsymm(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, Op.M,
                             Op.N, &Op.Alpha, A, Op.Lda, B, Op.Ldb, &Op.Beta, C,
                             Op.Ldc),
                 Op.R);
  }
}

} // namespace bench
