//===- bench.cpp - loopy against cuBLAS, side by side, in one run ---------===//
//
// For each kernel and size: tune it through the loopy API (or take the
// result from the tuning database), run it and the cuBLAS reference once on
// the same random inputs and compare their outputs, then time both with
// CUDA events (median of many runs; inputs rotated among several copies
// where one copy would fit in L2). The device's copy bandwidth is measured
// in the same run. Prints one table and writes it as JSON and as an SVG
// chart. Exits 1 if any result is wrong.
//
//   loopy-bench [--only=NAME[,NAME...]] [--quick] [--db=PATH] [--budget=N] OUTDIR
//
//===----------------------------------------------------------------------===//
#include "loopy/Driver/Json.h"
#include "loopy/Runtime/Cuda.h"
#include "loopy/loopy.h"

#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using loopy::cuda::DeviceBuffer;
using loopy::cuda::Event;
using loopy::cuda::Stream;

void check(cublasStatus_t S, const char *What) {
  if (S != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(What) + ": cuBLAS status " +
                             std::to_string(static_cast<int>(S)));
}

/// One array of a case: its name in the kernel, elements, element size.
struct ArraySpec {
  std::string Name;
  size_t Elements;
  size_t ElementBytes = 4;
  bool Output = false;
};

/// One set of device buffers of a case.
using BufferSet = std::map<std::string, DeviceBuffer>;

struct Case {
  std::string Name;   // "matmul f32"
  std::string Size;   // "4096^3"
  std::string File;   // in examples/
  std::map<std::string, long> Params;
  std::map<std::string, double> Scalars;
  std::vector<ArraySpec> Arrays;
  std::string Reference; // "cublasSgemm"
  /// Runs the reference on one buffer set.
  std::function<void(cublasHandle_t, BufferSet &)> RunReference;
  bool Quick = false; // part of --quick
  /// Terms summed into each output element (1 without a reduction): the
  /// outputs of loopy and of the reference may differ by rounding within
  /// the project's tolerance for that many terms.
  double ReductionLength = 1;
  /// Variants timed where --budget is not given (0: the tuner's default).
  /// Matrix products have thousands of register-tiled variants that the
  /// static model cannot tell apart; they get a wider search.
  size_t Budget = 0;
};

struct Row {
  std::string Name, Size, Reference, Schedule;
  double Loopy = 0, Ref = 0, Flops = 0, Bytes = 0, TuningSeconds = 0;
  double LookupSeconds = 0; // this run's tune() call
  double MaxError = 0;
  bool FromDatabase = false, Ok = false;
  std::string Error;
};

/// Median seconds of \p Run over repeats until 0.3 s or 200 runs, after
/// warm-up; \p Run gets the repeat number (to rotate buffers).
double timeIt(const Stream &S, const std::function<void(unsigned)> &Run) {
  for (unsigned I = 0; I < 3; ++I)
    Run(I);
  S.synchronize();
  Event Start, Stop;
  std::vector<double> Times;
  double Total = 0;
  for (unsigned I = 0; (Total < 0.3 || Times.size() < 10) && Times.size() < 200;
       ++I) {
    Start.record(S);
    Run(I);
    Stop.record(S);
    Stop.synchronize();
    Times.push_back(Event::elapsedSeconds(Start, Stop));
    Total += Times.back();
  }
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

/// Device-to-device copy bandwidth (bytes read plus written per second).
double copyBandwidth(const Stream &S) {
  size_t Bytes = size_t(1) << 30;
  DeviceBuffer A(Bytes), B(Bytes);
  A.memset(1);
  double T = timeIt(S, [&](unsigned) {
    if (cuMemcpyDtoDAsync_v2(B.pointer(), A.pointer(), Bytes, S.handle()) !=
        CUDA_SUCCESS)
      throw std::runtime_error("cuMemcpyDtoDAsync failed");
  });
  return 2.0 * Bytes / T;
}

std::vector<Case> cases(const std::string &Examples) {
  std::vector<Case> Cs;
  auto Gemm = [&](std::string Size, long N, long M, long L, bool Quick) {
    Case C;
    C.Name = "matmul f32";
    C.Size = Size;
    C.File = Examples + "/matmul.loop";
    C.Params = {{"n", N}, {"m", M}, {"l", L}};
    C.Arrays = {{"a", size_t(N * L)}, {"b", size_t(L * M)}, {"c", size_t(N * M), 4, true}};
    C.Reference = "cublasSgemm";
    C.Quick = Quick;
    C.ReductionLength = L;
    C.Budget = 128;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, L, &One,
                        (const float *)B.at("b").pointer(), M,
                        (const float *)B.at("a").pointer(), L, &Zero,
                        (float *)B.at("c").pointer(), M),
            "cublasSgemm");
    };
    Cs.push_back(C);
  };
  Gemm("4096^3", 4096, 4096, 4096, true);
  Gemm("1000^3", 1000, 1000, 1000, false);
  Gemm("4097^3", 4097, 4097, 4097, false);
  Gemm("8192x8192x512", 8192, 8192, 512, false);
  {
    Case C;
    C.Name = "matmul f64";
    C.Size = "4096^3";
    C.File = Examples + "/matmul_f64.loop";
    long N = 4096;
    C.Params = {{"n", N}, {"m", N}, {"l", N}};
    C.Arrays = {{"a", size_t(N * N), 8}, {"b", size_t(N * N), 8}, {"c", size_t(N * N), 8, true}};
    C.Reference = "cublasDgemm";
    C.Budget = 128;
    C.ReductionLength = N;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      double One = 1, Zero = 0;
      check(cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &One,
                        (const double *)B.at("b").pointer(), N,
                        (const double *)B.at("a").pointer(), N, &Zero,
                        (double *)B.at("c").pointer(), N),
            "cublasDgemm");
    };
    Cs.push_back(C);
  }
  for (bool T : {false, true}) {
    Case C;
    long N = 16384;
    C.Name = T ? "matvec_t f32" : "matvec f32";
    C.Size = "16384^2";
    C.File = Examples + (T ? "/matvec_t.loop" : "/matvec.loop");
    C.Params = {{"n", N}, {"m", N}};
    C.Arrays = {{"a", size_t(N * N)}, {"x", size_t(N)}, {"y", size_t(N), 4, true}};
    C.Reference = "cublasSgemv";
    C.ReductionLength = N;
    C.Quick = true;
    // Row-major a (n x m) is column-major aᵀ (m x n, leading dimension m).
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemv(H, T ? CUBLAS_OP_N : CUBLAS_OP_T, N, N, &One,
                        (const float *)B.at("a").pointer(), N,
                        (const float *)B.at("x").pointer(), 1, &Zero,
                        (float *)B.at("y").pointer(), 1),
            "cublasSgemv");
    };
    Cs.push_back(C);
  }
  {
    Case C;
    long N = 16384;
    C.Name = "transpose f32";
    C.Size = "16384^2";
    C.File = Examples + "/transpose.loop";
    C.Params = {{"n", N}, {"m", N}};
    C.Arrays = {{"a", size_t(N * N)}, {"b", size_t(N * N), 4, true}};
    C.Reference = "cublasSgeam";
    C.Quick = true;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      float *Out = (float *)B.at("b").pointer();
      check(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_N, N, N, &One,
                        (const float *)B.at("a").pointer(), N, &Zero, Out, N,
                        Out, N),
            "cublasSgeam");
    };
    Cs.push_back(C);
  }
  {
    Case C;
    long N = 1L << 28;
    C.Name = "lin_comb f32";
    C.Size = "2^28";
    C.File = Examples + "/lin_comb.loop";
    C.Params = {{"n", N}};
    C.Scalars = {{"a", 1.5}, {"b", -0.75}};
    C.Arrays = {{"x", size_t(N)}, {"y", size_t(N)}, {"z", size_t(N), 4, true}};
    // saxpy moves the same bytes: x read, y read and written.
    C.Reference = "cublasSaxpy";
    C.Quick = true;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float A = 1.5f;
      check(cublasSaxpy(H, N, &A, (const float *)B.at("x").pointer(), 1,
                        (float *)B.at("z").pointer(), 1),
            "cublasSaxpy");
    };
    Cs.push_back(C);
  }
  {
    Case C;
    long N = 1L << 28;
    C.Name = "dot f32";
    C.Size = "2^28";
    C.File = Examples + "/dot.loop";
    C.Params = {{"n", N}};
    C.Arrays = {{"x", size_t(N)}, {"y", size_t(N)}, {"r", 1, 4, true}};
    C.Reference = "cublasSdot";
    C.ReductionLength = N;
    C.Quick = true;
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      check(cublasSdot(H, N, (const float *)B.at("x").pointer(), 1,
                       (const float *)B.at("y").pointer(), 1,
                       (float *)B.at("r").pointer()),
            "cublasSdot");
    };
    Cs.push_back(C);
  }
  {
    Case C;
    long E = 100000, M = 35;
    C.Name = "batched 35x35 matmul";
    C.Size = "1e5 x 35x35x35";
    C.File = Examples + "/batched_matmul.loop";
    C.Params = {{"nelements", E}, {"m", M}};
    C.Arrays = {{"a", 35 * 35}, {"b", size_t(E * 35 * M)}, {"c", size_t(E * 35 * M), 4, true}};
    C.Reference = "cublasSgemmStridedBatched";
    C.ReductionLength = 35;
    // c[e] = a · b[e], row-major: column-major c[e]ᵀ = b[e]ᵀ · aᵀ, a shared.
    C.RunReference = [=](cublasHandle_t H, BufferSet &B) {
      float One = 1, Zero = 0;
      check(cublasSgemmStridedBatched(
                H, CUBLAS_OP_N, CUBLAS_OP_N, M, 35, 35, &One,
                (const float *)B.at("b").pointer(), M, 35 * M,
                (const float *)B.at("a").pointer(), 35, 0, &Zero,
                (float *)B.at("c").pointer(), M, 35 * M, E),
            "cublasSgemmStridedBatched");
    };
    Cs.push_back(C);
  }
  return Cs;
}

/// The largest difference between \p A and \p B relative to the largest
/// magnitude of \p B (NaN anywhere: infinity).
double maxError(const std::vector<unsigned char> &A,
                const std::vector<unsigned char> &B, size_t ElementBytes) {
  size_t N = A.size() / ElementBytes;
  double Worst = 0, Scale = 0;
  auto At = [&](const std::vector<unsigned char> &V, size_t I) {
    if (ElementBytes == 8) {
      double D;
      std::memcpy(&D, V.data() + 8 * I, 8);
      return D;
    }
    float F;
    std::memcpy(&F, V.data() + 4 * I, 4);
    return double(F);
  };
  for (size_t I = 0; I < N; ++I)
    Scale = std::max(Scale, std::fabs(At(B, I)));
  for (size_t I = 0; I < N; ++I) {
    double D = std::fabs(At(A, I) - At(B, I));
    if (std::isnan(D))
      return INFINITY;
    Worst = std::max(Worst, D);
  }
  return Worst / std::max(Scale, 1e-30);
}

std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, F, V);
  return Buf;
}

void writeSvg(const std::string &Path, const std::vector<Row> &Rows,
              const std::string &Title) {
  const int BarH = 22, Left = 330, Width = 420, Top = 50;
  int H = Top + BarH * int(Rows.size()) + 50;
  double Max = 1.2;
  for (const Row &R : Rows)
    if (R.Ok)
      Max = std::max(Max, R.Ref / R.Loopy * 1.1);
  std::ofstream OS(Path);
  OS << "<svg xmlns='http://www.w3.org/2000/svg' width='" << Left + Width + 80
     << "' height='" << H << "' font-family='sans-serif' font-size='12'>\n"
     << "<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='10' y='20' font-size='14'>" << Title << "</text>\n"
     << "<text x='10' y='38'>speed relative to the reference in the same run "
        "(reference time / loopy time; right of the line: loopy faster)</text>\n";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const Row &R = Rows[I];
    int Y = Top + BarH * int(I);
    double Ratio = R.Ok ? R.Ref / R.Loopy : 0;
    int W = int(Width * Ratio / Max);
    OS << "<text x='" << Left - 6 << "' y='" << Y + 15
       << "' text-anchor='end'>" << R.Name << " " << R.Size << " vs "
       << R.Reference << "</text>\n"
       << "<rect x='" << Left << "' y='" << Y + 3 << "' width='" << W
       << "' height='" << BarH - 6 << "' fill='"
       << (Ratio >= 1 ? "#2a7" : Ratio >= 0.8 ? "#e90" : "#c33") << "'/>\n"
       << "<text x='" << Left + W + 4 << "' y='" << Y + 15 << "'>"
       << (R.Ok ? fmt("%.2f", Ratio) : "wrong") << "</text>\n";
  }
  int X1 = Left + int(Width / Max);
  OS << "<line x1='" << X1 << "' y1='" << Top - 4 << "' x2='" << X1
     << "' y2='" << Top + BarH * int(Rows.size()) << "' stroke='black' "
        "stroke-dasharray='4,3'/>\n</svg>\n";
}

/// Whether --only=A,B,... (substrings of case names; empty: all) picks
/// the case \p Name.
bool selected(const std::string &Name, const std::string &Only) {
  if (Only.empty())
    return true;
  for (size_t B = 0;;) {
    size_t C = Only.find(',', B);
    if (Name.find(Only.substr(B, C - B)) != std::string::npos)
      return true;
    if (C == std::string::npos)
      return false;
    B = C + 1;
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string Out, Only, Db;
  bool Quick = false;
  size_t Budget = 0;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A.rfind("--only=", 0) == 0)
      Only = A.substr(7);
    else if (A == "--quick")
      Quick = true;
    else if (A.rfind("--db=", 0) == 0)
      Db = A.substr(5);
    else if (A.rfind("--budget=", 0) == 0)
      Budget = std::stoul(A.substr(9));
    else if (A[0] != '-')
      Out = A;
    else {
      std::fprintf(stderr, "loopy-bench: unknown option %s\n", A.c_str());
      return 2;
    }
  }
  if (Out.empty()) {
    std::fprintf(stderr, "usage: loopy-bench [--only=NAME] [--quick] "
                         "[--db=PATH] [--budget=N] OUTDIR\n");
    return 2;
  }
  std::filesystem::create_directories(Out);
  std::string Examples = LOOPY_EXAMPLES_DIR;
  try {
    loopy::cuda::Device Dev(0);
    loopy::cuda::Context Ctx(Dev);
    Stream S;
    cublasHandle_t H;
    check(cublasCreate(&H), "cublasCreate");
    check(cublasSetStream(H, S.handle()), "cublasSetStream");
    check(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    check(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    double Copy = copyBandwidth(S);
    std::printf("device: %s; device copy bandwidth %.0f GB/s (1 GiB, read + "
                "written)\n\n",
                Dev.name().c_str(), Copy / 1e9);
    std::vector<Row> Rows;
    bool AllOk = true;
    std::mt19937 Gen(1);
    std::uniform_real_distribution<float> U(0.5f, 1.5f);
    for (const Case &C : cases(Examples)) {
      if (!selected(C.Name, Only) || (Quick && !C.Quick))
        continue;
      Row R;
      R.Name = C.Name;
      R.Size = C.Size;
      R.Reference = C.Reference;
      try {
        auto K = loopy::api::Source::fromFile(C.File).kernel();
        for (auto &[P, V] : C.Params)
          K.fix(P, V);
        loopy::api::TuneSettings TS;
        TS.Database = Db;
        TS.Budget = Budget ? Budget : C.Budget;
        auto Start = std::chrono::steady_clock::now();
        loopy::api::TunedKernel T = K.tune(TS);
        R.FromDatabase = T.fromDatabase();
        R.LookupSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Start)
                              .count();
        R.TuningSeconds = T.tuningSeconds();
        R.Schedule = T.schedule();
        R.Flops = T.flops();
        R.Bytes = T.bytes();
        // Copies of the buffers, enough that one round exceeds twice L2.
        size_t SetBytes = 0;
        for (const ArraySpec &A : C.Arrays)
          SetBytes += A.Elements * A.ElementBytes;
        size_t L2 = Dev.l2Bytes();
        size_t Copies = SetBytes >= 2 * L2 ? 1 : (2 * L2) / SetBytes + 1;
        std::vector<BufferSet> Sets(Copies);
        for (const ArraySpec &A : C.Arrays) {
          std::vector<unsigned char> Host(A.Elements * A.ElementBytes);
          for (size_t I = 0; I < A.Elements; ++I) {
            float F = U(Gen) * (Gen() & 1 ? 1 : -1);
            if (A.ElementBytes == 8) {
              double D = F;
              std::memcpy(Host.data() + 8 * I, &D, 8);
            } else {
              std::memcpy(Host.data() + 4 * I, &F, 4);
            }
          }
          for (BufferSet &B : Sets) {
            auto It = B.emplace(A.Name, DeviceBuffer(Host.size())).first;
            It->second.upload(Host.data());
          }
        }
        auto Args = [&](BufferSet &B) {
          std::map<std::string, loopy::api::DevicePtr> M;
          for (auto &[Name, Buf] : B)
            M[Name] = Buf.pointer();
          return M;
        };
        // One run of each, outputs poisoned (NaN) first, compared.
        for (const ArraySpec &A : C.Arrays)
          if (A.Output)
            Sets[0].at(A.Name).memset(0xff);
        T.launch(Args(Sets[0]), C.Scalars, S.handle());
        S.synchronize();
        std::map<std::string, std::vector<unsigned char>> Mine;
        for (const ArraySpec &A : C.Arrays)
          if (A.Output) {
            Mine[A.Name].resize(A.Elements * A.ElementBytes);
            Sets[0].at(A.Name).download(Mine[A.Name].data());
          }
        if (C.Reference == "cublasSaxpy") {
          // z := b·y, then saxpy adds a·x: the same z = a·x + b·y.
          std::vector<unsigned char> Y(C.Arrays[1].Elements * 4);
          Sets[0].at("y").download(Y.data());
          for (size_t I = 0; I < Y.size() / 4; ++I) {
            float F;
            std::memcpy(&F, Y.data() + 4 * I, 4);
            F *= -0.75f;
            std::memcpy(Y.data() + 4 * I, &F, 4);
          }
          Sets[0].at("z").upload(Y.data());
        } else {
          for (const ArraySpec &A : C.Arrays)
            if (A.Output)
              Sets[0].at(A.Name).memset(0xff);
        }
        C.RunReference(H, Sets[0]);
        S.synchronize();
        R.Ok = true;
        for (const ArraySpec &A : C.Arrays)
          if (A.Output) {
            std::vector<unsigned char> Theirs(A.Elements * A.ElementBytes);
            Sets[0].at(A.Name).download(Theirs.data());
            double E = maxError(Mine[A.Name], Theirs, A.ElementBytes);
            R.MaxError = std::max(R.MaxError, E);
            // Two results, each within the tolerance of the exact one
            // (Interp/Compare.h: 16 eps (1 + sqrt(terms))).
            double Eps = A.ElementBytes == 8 ? 2.220446e-16 : 1.192093e-7;
            double Tol = 2 * 16 * Eps * (1 + std::sqrt(C.ReductionLength));
            if (!(E <= Tol)) {
              R.Ok = false;
              R.Error = "output " + A.Name + " differs from " + C.Reference +
                        " by " + fmt("%.3g", E) + " of its largest magnitude";
            }
          }
        R.Loopy = timeIt(S, [&](unsigned I) {
          T.launch(Args(Sets[I % Copies]), C.Scalars, S.handle());
        });
        R.Ref = timeIt(S, [&](unsigned I) { C.RunReference(H, Sets[I % Copies]); });
      } catch (std::exception &E) {
        R.Ok = false;
        R.Error = E.what();
      }
      AllOk &= R.Ok;
      std::printf("%-22s %-15s loopy %9.4f ms  %s %9.4f ms  ratio %5.2f  "
                  "%8.1f GFLOP/s %7.1f GB/s (%3.0f%% of copy)  tuned in "
                  "%.1f s%s%s%s\n",
                  R.Name.c_str(), R.Size.c_str(), R.Loopy * 1e3,
                  R.Reference.c_str(), R.Ref * 1e3,
                  R.Loopy > 0 ? R.Ref / R.Loopy : 0,
                  R.Loopy > 0 ? R.Flops / R.Loopy / 1e9 : 0,
                  R.Loopy > 0 ? R.Bytes / R.Loopy / 1e9 : 0,
                  R.Loopy > 0 ? 100 * R.Bytes / R.Loopy / Copy : 0,
                  R.TuningSeconds,
                  R.FromDatabase
                      ? fmt(" (read from the database in %.2f s)", R.LookupSeconds).c_str()
                      : "",
                  R.Ok ? "" : "  WRONG: ", R.Error.c_str());
      std::fflush(stdout);
      Rows.push_back(R);
    }
    cublasDestroy(H);

    // JSON and the chart.
    std::time_t Now = std::time(nullptr);
    char Date[32];
    std::strftime(Date, sizeof Date, "%Y-%m-%d %H:%M UTC", std::gmtime(&Now));
    loopy::Json Results = loopy::Json::array();
    for (const Row &R : Rows) {
      auto Rate = [&](double V) { return R.Loopy > 0 ? V / R.Loopy : 0; };
      Results.push_back(loopy::Json{
          {"kernel", R.Name},
          {"size", R.Size},
          {"reference", R.Reference},
          {"loopy_ms", R.Loopy * 1e3},
          {"reference_ms", R.Ref * 1e3},
          {"ratio", Rate(R.Ref)},
          {"gflops", Rate(R.Flops) / 1e9},
          {"gbs", Rate(R.Bytes) / 1e9},
          {"copy_fraction", Rate(R.Bytes) / Copy},
          {"tuning_s", R.TuningSeconds},
          {"this_run_tune_call_s", R.LookupSeconds},
          {"from_database", R.FromDatabase},
          {"max_error", std::isfinite(R.MaxError) ? R.MaxError : -1},
          {"ok", R.Ok},
          {"schedule", R.Schedule}});
    }
    loopy::Json Doc{{"device", Dev.name()},
                    {"date", Date},
                    {"commit", LOOPY_COMMIT},
                    {"copy_bandwidth_gbs", Copy / 1e9},
                    {"results", std::move(Results)}};
    std::ofstream J(Out + "/results.json");
    J << loopy::printJson(Doc) << "\n";
    writeSvg(Out + "/chart.svg", Rows,
             "loopy vs cuBLAS on " + Dev.name() + ", " + Date + ", commit " +
                 LOOPY_COMMIT);
    return AllOk ? 0 : 1;
  } catch (std::exception &E) {
    std::fprintf(stderr, "loopy-bench: %s\n", E.what());
    return 1;
  }
}
