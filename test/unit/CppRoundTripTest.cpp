//===- CppRoundTripTest.cpp - Lifted C++ kernels against the C++ itself ---===//
//
// The round trip of the C/C++ front end. Each loop nest of
// examples/cpp/kernels.cpp and examples/cpp/polybench_style.cpp (C89
// declarations, a temporary, a time loop on the host) is lifted by the
// built loopy-extract, and the
// lifted kernel's variants, printed as OpenCL and run on PoCL, must compute
// what the original C++ function computes when g++ compiles it into this
// test (CppKernels.cpp) and it runs on the host on the same input values.
// The interpreter must agree with the host too. Where the two disagree, the
// lifting is wrong, not only a variant: the interpreter check alone cannot
// see that, since it runs the lifted kernel on both sides.
//
// The variants are the best ranked and the first of every reduction
// strategy and prefetch combination (as --check=opencl --sample=1 picks
// them); the sizes are multiples of no tile, so partial tiles run.
//
// Skipped where loopy-extract was not built (no Clang 14 development
// files) or no OpenCL CPU device is found.
//
//===----------------------------------------------------------------------===//
#include "loopy/CodeGen/Lower.h"
#include "loopy/Compile/Compile.h"
#include "loopy/CodeGen/Plant.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Driver/CheckOpenCL.h"
#include "loopy/Driver/RunOpenCL.h"
#include "loopy/Interp/Compare.h"
#include "loopy/Interp/Interpreter.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Runtime/OpenCL.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

// Defined by examples/cpp/kernels.cpp (compiled in CppKernels.cpp).
void matmul(int n, int m, int l, const float *a, const float *b, float *c);
void blur(const std::vector<float> &image, std::vector<float> &out, int rows,
          int cols);
void row_abs_max(int n, int m, const double *a, double *r);
// Defined by examples/cpp/polybench_style.cpp.
void gemm_c89(int ni, int nj, int nk, double alpha, double beta, double *C,
              const double *A, const double *B);
void gesummv_c89(int n, double alpha, double beta, const double *A,
                 const double *B, const double *x, double *tmp, double *y);
void jacobi_c89(int tsteps, int n, double *A, double *B);

using namespace loopy;
using namespace loopy::interptest;

namespace {

/// The .loop text loopy-extract lifts from kernel \p Name of the example
/// \p File (in examples/cpp); empty, after a test failure, if it fails.
/// Its diagnostics go to the test's standard error.
std::string liftKernel(const std::string &File, const std::string &Name) {
  const std::string Example =
      std::string(LOOPY_EXAMPLES_DIR) + "/cpp/" + File;
  // Flags after '--' keep the extractor from looking for a
  // compile_commands.json above the example.
  std::string Command = "'" + std::string(LOOPY_EXTRACT) + "' '" + Example +
                        "' --kernel=" + Name + " -- -std=c++20";
  FILE *P = ::popen(Command.c_str(), "r");
  if (!P) {
    ADD_FAILURE() << "cannot run " << Command;
    return "";
  }
  std::string Text;
  char Buf[4096];
  for (size_t N; (N = std::fread(Buf, 1, sizeof Buf, P)) > 0;)
    Text.append(Buf, N);
  int Status = ::pclose(P);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    ADD_FAILURE() << Command << " failed (status " << Status << ")";
    return "";
  }
  return Text;
}

/// The elements of array \p Name of \p D as the C++ code indexes them:
/// null, after a test failure, unless the array holds \p T elements laid
/// out row-major without padding in \p Extents, as the flat subscripts of
/// the C++ code assume.
template <typename T>
T *flatElements(HostData &D, const std::string &Name, DType Type,
                const std::vector<long> &Extents) {
  HostArray &A = D.array(Name);
  std::vector<long> RowMajor(Extents.size(), 1);
  for (size_t I = Extents.size(); I-- > 1;)
    RowMajor[I - 1] = RowMajor[I] * Extents[I];
  if (A.type() != Type || A.extents() != Extents || A.strides() != RowMajor ||
      sizeof(T) * A.size() != A.byteSize()) {
    ADD_FAILURE() << "array '" << Name
                  << "' of the lifted kernel is not laid out as the C++ "
                     "code indexes it";
    return nullptr;
  }
  return static_cast<T *>(A.data());
}

// Each runs a C++ function of the example on the inputs in \p D, through
// pointers to its arrays, and writes its outputs there; false, after a
// test failure, if the arrays are not laid out as the function needs.

bool matmulOnHost(HostData &D) {
  long N = D.Params.at("n"), M = D.Params.at("m"), L = D.Params.at("l");
  const float *A = flatElements<float>(D, "a", DType::F32, {N, L});
  const float *B = flatElements<float>(D, "b", DType::F32, {L, M});
  float *C = flatElements<float>(D, "c", DType::F32, {N, M});
  if (!A || !B || !C)
    return false;
  matmul(N, M, L, A, B, C);
  return true;
}

bool blurOnHost(HostData &D) {
  long Rows = D.Params.at("rows"), Cols = D.Params.at("cols");
  const float *In = flatElements<float>(D, "in_", DType::F32, {Rows, Cols});
  // The kernel's output ends at the last row it writes, rows - 2; the C++
  // image has all rows, and zeros where the kernel writes nothing.
  float *Dst = flatElements<float>(D, "dst", DType::F32, {Rows - 1, Cols});
  if (!In || !Dst)
    return false;
  std::vector<float> Image(In, In + Rows * Cols), Out(Rows * Cols);
  blur(Image, Out, Rows, Cols);
  std::copy(Out.begin(), Out.begin() + (Rows - 1) * Cols, Dst);
  return true;
}

bool rowAbsMaxOnHost(HostData &D) {
  long N = D.Params.at("n"), M = D.Params.at("m");
  const double *A = flatElements<double>(D, "a", DType::F64, {N, M});
  double *R = flatElements<double>(D, "r", DType::F64, {N});
  if (!A || !R)
    return false;
  row_abs_max(N, M, A, R);
  return true;
}

bool gemmC89OnHost(HostData &D) {
  long NI = D.Params.at("ni"), NJ = D.Params.at("nj"), NK = D.Params.at("nk");
  const double *A = flatElements<double>(D, "A", DType::F64, {NI, NK});
  const double *B = flatElements<double>(D, "B", DType::F64, {NK, NJ});
  double *C = flatElements<double>(D, "C", DType::F64, {NI, NJ});
  if (!A || !B || !C)
    return false;
  gemm_c89(NI, NJ, NK, D.Scalars.at("alpha").Float,
           D.Scalars.at("beta").Float, C, A, B);
  return true;
}

bool gesummvC89OnHost(HostData &D) {
  long N = D.Params.at("n");
  const double *A = flatElements<double>(D, "A", DType::F64, {N, N});
  const double *B = flatElements<double>(D, "B", DType::F64, {N, N});
  const double *X = flatElements<double>(D, "x", DType::F64, {N});
  double *Tmp = flatElements<double>(D, "tmp", DType::F64, {N});
  double *Y = flatElements<double>(D, "y", DType::F64, {N});
  if (!A || !B || !X || !Tmp || !Y)
    return false;
  gesummv_c89(N, D.Scalars.at("alpha").Float, D.Scalars.at("beta").Float, A,
              B, X, Tmp, Y);
  return true;
}

bool jacobiStepOnHost(HostData &D) {
  // One step of the time loop: the kernel's output B, and A, which the
  // host's copy back changes but the kernel only reads.
  long N = D.Params.at("n");
  double *A = flatElements<double>(D, "A", DType::F64, {N});
  double *B = flatElements<double>(D, "B", DType::F64, {N - 1});
  if (!A || !B)
    return false;
  std::vector<double> AllA(A, A + N), AllB(N);
  std::copy(B, B + N - 1, AllB.begin());
  jacobi_c89(1, N, AllA.data(), AllB.data());
  std::copy(AllB.begin(), AllB.begin() + N - 1, B);
  return true;
}

/// One kernel of an example, the sizes it runs at, and its C++ function.
struct RoundTripCase {
  std::string File;
  std::string Kernel;
  ParamValues Params;
  bool (*RunOnHost)(HostData &);
};

/// Names the case in test names (which ctest lists) by its kernel.
void PrintTo(const RoundTripCase &C, std::ostream *OS) { *OS << C.Kernel; }

const RoundTripCase Cases[] = {
    {"kernels.cpp", "matmul", {{"n", 37}, {"m", 29}, {"l", 41}}, matmulOnHost},
    {"kernels.cpp", "blur3x3", {{"rows", 23}, {"cols", 31}}, blurOnHost},
    {"kernels.cpp", "row_abs_max", {{"n", 37}, {"m", 29}}, rowAbsMaxOnHost},
    {"polybench_style.cpp",
     "gemm_c89",
     {{"ni", 37}, {"nj", 29}, {"nk", 41}},
     gemmC89OnHost},
    {"polybench_style.cpp", "gesummv_c89", {{"n", 37}}, gesummvC89OnHost},
    {"polybench_style.cpp", "jacobi_step", {{"n", 53}}, jacobiStepOnHost},
};

/// A lifted kernel and the data of one round trip: random inputs, and a
/// copy of them with the C++ function's outputs.
struct RoundTripData {
  std::shared_ptr<const Kernel> K; // null after a test failure
  HostData Inputs;
  HostData Host;
};

/// The kernel of \p C lifted, built and checked as loopyc builds it, random
/// inputs for it and the C++ function's run on them.
RoundTripData runOnHost(const RoundTripCase &C) {
  RoundTripData D;
  std::string Text = liftKernel(C.File, C.Kernel);
  if (Text.empty() || !(D.K = buildKernel(Text)))
    return D;
  D.Inputs = randomData(*D.K, C.Params, 1);
  D.Host = D.Inputs;
  if (D.Inputs.Params.empty() || !C.RunOnHost(D.Host))
    D.K = nullptr;
  return D;
}

class CppRoundTrip : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(LOOPY_EXTRACT))
      GTEST_SKIP() << "loopy-extract was not built (it needs the Clang 14 "
                      "development files)";
    if (!device())
      GTEST_SKIP() << "no OpenCL CPU device: " << DeviceError;
  }

  /// PoCL's device, opened once for all tests of the program.
  static const cl::Device *device() {
    static std::unique_ptr<cl::Device> Dev = [] {
      try {
        return std::make_unique<cl::Device>();
      } catch (cl::OpenCLError &E) {
        DeviceError = E.what();
        return std::unique_ptr<cl::Device>();
      }
    }();
    return Dev.get();
  }

  /// Runs each variant \p Vs[Pick[I]], printed as OpenCL and damaged as
  /// \p Plant says (if not empty), on PoCL from a copy of \p Inputs, and
  /// returns the data each run leaves.
  static std::vector<HostData> runVariants(const Kernel &K,
                                           const std::vector<Variant> &Vs,
                                           const std::vector<size_t> &Pick,
                                           const HostData &Inputs,
                                           const std::string &Plant = "");

  /// Checks the interpreter and the planner's variants, run on D.Inputs,
  /// against the C++ code's outputs in D.Host.
  static void expectMatchesHost(const RoundTripData &D);

  static std::string DeviceError;
};

std::string CppRoundTrip::DeviceError;

std::vector<HostData> CppRoundTrip::runVariants(const Kernel &K,
                                                const std::vector<Variant> &Vs,
                                                const std::vector<size_t> &Pick,
                                                const HostData &Inputs,
                                                const std::string &Plant) {
  // One program holds every variant, renamed apart: PoCL builds it in
  // little more time than one.
  std::vector<device::DeviceProgram> Programs;
  std::string Source = printPrelude(Dialect::OpenCL);
  for (size_t I : Pick) {
    // Through the variant's view of the kernel (merged, fused or none).
    auto P = lowerVariant(K, Vs[I]);
    EXPECT_TRUE(P) << Vs[I].Name << ": " << (P ? "" : P.failure().Message);
    if (!P)
      return {};
    if (!Plant.empty()) {
      EXPECT_TRUE(plantBug(*P, Plant)) << Vs[I].Name << ": nothing to plant";
    }
    for (device::DeviceKernel &DK : P->Kernels)
      DK.Name += "_v" + std::to_string(I);
    Source += printKernels(*P, Dialect::OpenCL);
    Programs.push_back(std::move(*P));
  }
  std::vector<HostData> Runs;
  try {
    cl::Program Prog = device()->build(Source, "-w -cl-opt-disable");
    for (const device::DeviceProgram &P : Programs) {
      Runs.push_back(Inputs);
      runOnOpenCL(*device(), Prog, P, K, Runs.back(), K.Context.ctx());
    }
  } catch (cl::OpenCLError &E) {
    ADD_FAILURE() << E.what();
    return {};
  }
  return Runs;
}

void CppRoundTrip::expectMatchesHost(const RoundTripData &D) {
  const Kernel &K = *D.K;
  const HostData &Inputs = D.Inputs, &Host = D.Host;
  HostData Interp = Inputs;
  interpret(K, Interp);
  Comparison C = compareOutputs(K, Host, Interp);
  EXPECT_TRUE(C.Ok) << "interpreter: " << C.message();

  std::string Error;
  std::vector<Variant> Vs = planKernel(K, PlannerOptions(), Error);
  ASSERT_FALSE(Vs.empty()) << Error;
  CompileOptions Opts;
  Opts.Sample = 1;
  Opts.EveryStrategy = true;
  std::vector<size_t> Pick = selectVariants(K, Vs, Opts);
  std::vector<HostData> Runs = runVariants(K, Vs, Pick, Inputs);
  ASSERT_EQ(Runs.size(), Pick.size());
  for (size_t I = 0; I < Pick.size(); ++I) {
    // The host's outputs are the reference: compareOutputs judges only the
    // elements the kernel writes, which the C++ code writes too.
    Comparison C = compareOutputs(K, Host, Runs[I]);
    EXPECT_TRUE(C.Ok) << "variant #" << Pick[I] << " " << Vs[Pick[I]].Name
                      << ": " << C.message();
    if (C.Ok)
      std::printf("%s #%zu %s: relative error %.2g\n", K.Name.c_str(),
                  Pick[I], Vs[Pick[I]].Name.c_str(), C.Arrays[0].RelativeL2);
  }
}

class CppRoundTripExamples
    : public CppRoundTrip,
      public ::testing::WithParamInterface<RoundTripCase> {};

TEST_P(CppRoundTripExamples, MatchesTheHost) {
  RoundTripData D = runOnHost(GetParam());
  ASSERT_TRUE(D.K);
  expectMatchesHost(D);
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, CppRoundTripExamples, ::testing::ValuesIn(Cases),
    [](const ::testing::TestParamInfo<RoundTripCase> &I) {
      return I.param.Kernel;
    });

// A comparison that cannot fail proves nothing: a prefetching matmul
// variant without its first barrier computes from shared tiles that other
// threads have not finished loading, and must differ from the host's
// result. (The variant is named, not planned: planning the matmul's 2770
// variants takes most of a test's time.)
TEST_F(CppRoundTrip, CatchesAPlantedBug) {
  RoundTripData D = runOnHost(Cases[0]);
  ASSERT_TRUE(D.K);
  const Kernel &K = *D.K;
  std::string Error;
  auto V = findVariant(K, {},
                       "i:g.y,t.y*16 j:g.x,t.x*16 k:seq*16 prefetch:a,b", Error);
  ASSERT_TRUE(V) << Error;
  std::vector<HostData> Runs =
      runVariants(K, {*V}, {0}, D.Inputs, "drop-barrier");
  ASSERT_EQ(Runs.size(), 1u);
  Comparison C = compareOutputs(K, D.Host, Runs[0]);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.message().find("array 'c'"), std::string::npos) << C.message();
}

} // namespace
