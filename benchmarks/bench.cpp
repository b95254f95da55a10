//===- bench.cpp - loopy against cuBLAS and the roofline, in one run ------===//
//
// For each case (cases.h): tune its kernels through the loopy API (or take
// the results from the tuning database); where the reference is cuBLAS,
// run loopy's kernels and the reference once on the same random inputs and
// compare their outputs; then time both with CUDA events (median of many
// runs; inputs rotated among several copies where one copy would fit in
// L2). The device's copy bandwidth, and cuBLAS SGEMM's FLOP rate where a
// roofline needs it, are measured in the same run. Prints one table and
// writes it as JSON and as an SVG chart. Exits 1 if any result is wrong.
//
// The GPU driver is loaded only to run: --help and --list work on a
// machine without one.
//
//===----------------------------------------------------------------------===//
#include "GitCommit.h"
#include "cases.h"
#include "report.h"

#include "loopy/loopy.h"
#include "loopy/Support/Half.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace bench {

namespace {

using loopy::cuda::DeviceBuffer;
using loopy::cuda::Event;
using loopy::cuda::Stream;

const char *Usage =
    "usage: loopy-bench [OPTIONS] OUTDIR     run the cases on the GPU\n"
    "       loopy-bench [OPTIONS] --list     list them (no GPU needed)\n"
    "       loopy-bench --merge OUTDIR RESULTS.json...\n"
    "                                   one table, JSON and chart of the rows\n"
    "                                   of several runs of one build on one\n"
    "                                   device (no GPU needed); a later run's\n"
    "                                   row of a case replaces an earlier's\n"
    "\n"
    "  --suite=zoo|examples|all  which cases (default: all)\n"
    "  --only=NAME[,NAME...]     cases whose name contains one of these\n"
    "  --quick                   a few cases of each suite\n"
    "  --db=PATH                 the tuning database\n"
    "  --budget=N                variants timed per kernel\n"
    "  --exhaustive[=N]          also search every variant (or N) of each\n"
    "                            kernel, into its own database, and give the\n"
    "                            default search's winner's speed as a\n"
    "                            fraction of that search's (exhaustive_ms)\n"
    "  --exhaustive-db=PATH      that database (default: OUTDIR/exhaustive.db)\n"
    "  --examples=DIR            the examples suite's .loop files (default:\n"
    "                            share/loopy/examples beside the program's\n"
    "                            bin folder, as the build and install lay out)\n"
    "  --zoo=DIR                 the zoo's files (default: share/loopy/zoo)\n"
    "  --list                    print the selected cases with their counted\n"
    "                            work and reference, and check every zoo\n"
    "                            file's cuBLAS calls on the host against the\n"
    "                            reference interpreter at its check sizes\n";

void check(cublasStatus_t S, const char *What) {
  if (S != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(What) + ": cuBLAS status " +
                             std::to_string(static_cast<int>(S)));
}

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

/// Device-to-device copy bandwidth (bytes read plus written per second),
/// through the driver that loopy::cuda loaded.
double copyBandwidth(const Stream &S) {
  using CopyFn = CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto Copy = Lib ? reinterpret_cast<CopyFn>(dlsym(Lib, "cuMemcpyDtoDAsync_v2"))
                  : nullptr;
  if (!Copy)
    throw std::runtime_error("cuMemcpyDtoDAsync_v2 not found in libcuda.so.1");
  size_t Bytes = size_t(1) << 30;
  DeviceBuffer A(Bytes), B(Bytes);
  A.memset(1);
  double T = timeIt(S, [&](unsigned) {
    if (Copy(B.pointer(), A.pointer(), Bytes, S.handle()) != CUDA_SUCCESS)
      throw std::runtime_error("cuMemcpyDtoDAsync failed");
  });
  return 2.0 * Bytes / T;
}

/// cuBLAS SGEMM's FLOP rate at 4096^3.
double sgemmRate(cublasHandle_t H, const Stream &S) {
  const int N = 4096;
  DeviceBuffer A(size_t(N) * N * 4), B(size_t(N) * N * 4), C(size_t(N) * N * 4);
  A.memset(0x3c);
  B.memset(0x3c);
  auto P = [](const DeviceBuffer &D) {
    return reinterpret_cast<float *>(static_cast<uintptr_t>(D.pointer()));
  };
  float One = 1, Zero = 0;
  double T = timeIt(S, [&](unsigned) {
    check(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &One, P(A), N, P(B),
                      N, &Zero, P(C), N),
          "cublasSgemm");
  });
  return 2.0 * N * N * N / T;
}

/// The largest difference between \p A and \p B relative to the largest
/// magnitude of \p B; elements NaN in both (written by neither: still
/// poisoned) are skipped, a NaN in one only gives infinity.
double maxError(const std::vector<unsigned char> &A,
                const std::vector<unsigned char> &B, loopy::DType Type) {
  size_t ElementBytes = loopy::dtypeSize(Type);
  auto At = [&](const std::vector<unsigned char> &V, size_t I) {
    if (ElementBytes == 8) {
      double D;
      std::memcpy(&D, V.data() + 8 * I, 8);
      return D;
    }
    if (ElementBytes == 2) {
      uint16_t H;
      std::memcpy(&H, V.data() + 2 * I, 2);
      return double(Type == loopy::DType::BF16 ? loopy::bf16ToFloat(H)
                                               : loopy::f16ToFloat(H));
    }
    float F;
    std::memcpy(&F, V.data() + 4 * I, 4);
    return double(F);
  };
  double Worst = 0, Scale = 0;
  for (size_t I = 0; I < A.size() / ElementBytes; ++I) {
    double X = At(A, I), Y = At(B, I);
    if (std::isnan(X) && std::isnan(Y))
      continue;
    if (std::isnan(X - Y))
      return INFINITY;
    Worst = std::max(Worst, std::fabs(X - Y));
    Scale = std::max(Scale, std::fabs(Y));
  }
  return Worst / std::max(Scale, 1e-30);
}

/// The GPU, its stream and cuBLAS handle, and what was measured on it.
struct Gpu {
  loopy::cuda::Device Dev{0};
  loopy::cuda::Context Ctx{Dev};
  Stream S;
  cublasHandle_t H = nullptr;
  double Copy = 0, Sgemm = 0;
  std::mt19937 Gen{1};

  Gpu() {
    check(cublasCreate(&H), "cublasCreate");
    check(cublasSetStream(H, S.handle()), "cublasSetStream");
    check(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    check(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    Copy = copyBandwidth(S);
  }
  ~Gpu() { cublasDestroy(H); }
};

/// Random values in ±[0.5, 1.5) for inputs; all-ones bytes (NaN) for the
/// rest, so that an element nobody wrote shows.
std::vector<unsigned char> initialData(const ArraySpec &A, std::mt19937 &Gen) {
  std::vector<unsigned char> Host(A.Elements * A.ElementBytes, 0xff);
  if (!A.Input)
    return Host;
  std::uniform_real_distribution<float> U(0.5f, 1.5f);
  for (size_t I = 0; I < A.Elements; ++I) {
    float F = U(Gen) * (Gen() & 1 ? 1 : -1);
    if (A.ElementBytes == 8) {
      double D = F;
      std::memcpy(Host.data() + 8 * I, &D, 8);
    } else if (A.ElementBytes == 2) {
      uint16_t H = A.Type == loopy::DType::BF16 ? loopy::floatToBf16(F)
                                                : loopy::floatToF16(F);
      std::memcpy(Host.data() + 2 * I, &H, 2);
    } else {
      std::memcpy(Host.data() + 4 * I, &F, 4);
    }
  }
  return Host;
}

/// The wider search of --exhaustive, beside the default one.
struct WiderSearch {
  bool On = false;
  size_t Budget = 0; // 0: every variant
  std::string Database;
};

Row runCase(const Case &C, Gpu &G, const std::string &Db, size_t Budget,
            const WiderSearch &Wider) {
  Row R;
  R.Suite = C.Suite;
  R.Name = C.Name;
  R.Size = C.Size;
  R.Reference = C.Reference;
  R.Kernels = C.Kernels;
  R.Flops = C.Flops;
  R.Bytes = C.Bytes;
  try {
    std::vector<loopy::api::TunedKernel> Tuned;
    auto Source = loopy::api::Source::fromFile(C.File);
    R.FromDatabase = true;
    for (const std::string &Name : C.Kernels) {
      auto K = Source.kernel(Name);
      for (const std::string &P : K.parameters())
        K.fix(P, C.Params.at(P));
      K.allowTf32(C.Tf32);
      loopy::api::TuneSettings TS;
      TS.Database = Db;
      TS.Budget = Budget ? Budget : C.Budget;
      auto Start = std::chrono::steady_clock::now();
      Tuned.push_back(K.tune(TS));
      R.LookupSeconds += std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - Start)
                             .count();
      const loopy::api::TunedKernel &T = Tuned.back();
      R.SearchBest += T.seconds();
      if (Wider.On) {
        // Its own database: the default search's winner stays the one
        // this run times, and a second run reads the wider one back.
        loopy::api::TuneSettings W;
        W.Database = Wider.Database;
        W.Budget = Wider.Budget;
        W.Exhaustive = Wider.Budget == 0;
        R.ExhaustiveBest += K.tune(W).seconds();
      }
      R.FromDatabase &= T.fromDatabase();
      R.TuningSeconds += T.tuningSeconds();
      R.Schedule += (R.Schedule.empty() ? "" : " ; ") + T.schedule();
    }
    // Copies of the buffers, enough that one round exceeds twice L2.
    size_t SetBytes = 0;
    for (const ArraySpec &A : C.Arrays)
      SetBytes += A.Elements * A.ElementBytes;
    size_t L2 = G.Dev.l2Bytes();
    size_t Copies = SetBytes >= 2 * L2 ? 1 : (2 * L2) / std::max<size_t>(SetBytes, 1) + 1;
    std::vector<BufferSet> Sets(Copies);
    std::map<std::string, std::vector<unsigned char>> Start;
    for (const ArraySpec &A : C.Arrays) {
      Start[A.Name] = initialData(A, G.Gen);
      for (BufferSet &B : Sets)
        B.emplace(A.Name, DeviceBuffer(Start[A.Name].size()))
            .first->second.upload(Start[A.Name].data());
    }
    std::vector<std::map<std::string, loopy::api::DevicePtr>> Args(Copies);
    for (size_t I = 0; I < Copies; ++I)
      for (auto &[Name, Buf] : Sets[I])
        Args[I][Name] = Buf.pointer();
    auto RunLoopy = [&](size_t Set) {
      for (const loopy::api::TunedKernel &T : Tuned)
        T.launch(Args[Set], C.Scalars, G.S.handle());
    };
    R.Ok = true;
    if (C.RunReference) {
      // One run of each from the same start, outputs compared.
      RunLoopy(0);
      G.S.synchronize();
      std::map<std::string, std::vector<unsigned char>> Mine;
      for (const ArraySpec &A : C.Arrays)
        if (A.Output) {
          Mine[A.Name].resize(A.Elements * A.ElementBytes);
          Sets[0].at(A.Name).download(Mine[A.Name].data());
          Sets[0].at(A.Name).upload(Start[A.Name].data());
        }
      if (C.PrepareReference)
        C.PrepareReference(Sets[0]);
      C.RunReference(G.H, Sets[0]);
      G.S.synchronize();
      for (const ArraySpec &A : C.Arrays) {
        if (!A.Output)
          continue;
        std::vector<unsigned char> Theirs(A.Elements * A.ElementBytes);
        Sets[0].at(A.Name).download(Theirs.data());
        double E = maxError(Mine[A.Name], Theirs, A.Type);
        R.MaxError = std::max(R.MaxError, E);
        // Two results, each within the tolerance of the exact one
        // (Interp/Compare.h: 16 eps (1 + sqrt(terms)) per kernel).
        double Eps = A.Type == loopy::DType::F64    ? 2.220446e-16
                     : A.Type == loopy::DType::F16  ? 9.765625e-4
                     : A.Type == loopy::DType::BF16 ? 7.8125e-3
                                                    : 1.192093e-7;
        // Products of tf32 operands: each within twice 2^-11 more.
        double Rounded = C.Tf32 && A.Type == loopy::DType::F32
                             ? 2 * 2 * 0x1p-11 * C.Kernels.size()
                             : 0;
        if (!(E <= 2 * 16 * Eps * C.ToleranceTerms + Rounded)) {
          R.Ok = false;
          R.Error = "output " + A.Name + " differs from " + C.Reference + " by " +
                    std::to_string(E) + " of its largest magnitude";
        }
      }
    }
    R.Loopy = timeIt(G.S, [&](unsigned I) { RunLoopy(I % Copies); });
    if (C.RunReference) {
      R.Ref = timeIt(G.S, [&](unsigned I) { C.RunReference(G.H, Sets[I % Copies]); });
    } else {
      if (!G.Sgemm)
        G.Sgemm = sgemmRate(G.H, G.S);
      double BytesTime = C.Bytes / G.Copy, FlopsTime = C.Flops / G.Sgemm;
      R.Ref = std::max(BytesTime, FlopsTime);
      R.Reference = BytesTime >= FlopsTime ? "roofline (bytes)" : "roofline (FLOPs)";
    }
  } catch (std::exception &E) {
    R.Ok = false;
    R.Error = E.what();
  }
  return R;
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

/// Prints the cases and checks the zoo's references on the host.
int list(const std::vector<Case> &Cases, const std::vector<ZooFile> &Zoo) {
  for (const Case &C : Cases) {
    std::string Kernels;
    for (const std::string &K : C.Kernels)
      Kernels += (Kernels.empty() ? "" : ",") + K;
    std::printf("%-8s %-22s %-18s %-28s %10.3f GFLOP %10.1f MB  %s%s\n",
                C.Suite.c_str(), C.Name.c_str(), C.Size.c_str(), Kernels.c_str(),
                C.Flops / 1e9, C.Bytes / 1e6, C.Reference.c_str(),
                C.Quick ? "  (quick)" : "");
  }
  int Status = 0;
  for (const ZooFile &F : Zoo) {
    if (F.Reference.empty())
      continue;
    try {
      double E = checkReferenceOnHost(F);
      std::printf("reference of %s checked on the host at its check sizes: "
                  "largest difference %.2g\n",
                  F.Name.c_str(), E);
    } catch (std::exception &E) {
      std::printf("reference of %s WRONG: %s\n", F.Name.c_str(), E.what());
      Status = 1;
    }
  }
  return Status;
}

/// PREFIX/share/loopy/\p Name for the program at PREFIX/bin: where the
/// build tree and an installed package put the benchmark's inputs.
std::string dataDir(const char *Name) {
  std::error_code EC;
  std::filesystem::path Exe =
      std::filesystem::read_symlink("/proc/self/exe", EC);
  if (EC)
    return Name;
  return (Exe.parent_path().parent_path() / "share" / "loopy" / Name).string();
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// --merge: the rows of the results.json files \p Files, one run of one
/// build on one device, into \p Out as a run writes them. The copy
/// bandwidth and SGEMM rate given are the runs' medians (each row's ratio
/// is its own run's).
int merge(const std::string &Out, const std::vector<std::string> &Files) {
  std::vector<Row> Rows;
  RunInfo Info;
  std::vector<double> Copies, Sgemms;
  for (const std::string &F : Files) {
    RunInfo I;
    std::vector<Row> More = readJson(F, I);
    if (F != Files.front() &&
        (I.Device != Info.Device || I.Commit != Info.Commit))
      throw std::runtime_error(F + " was measured on " + I.Device +
                               " at commit " + I.Commit + ", " +
                               Files.front() + " on " + Info.Device +
                               " at commit " + Info.Commit +
                               ": only runs of one build on one device merge");
    if (F == Files.front())
      Info = I;
    Info.Date = std::max(Info.Date, I.Date);
    Copies.push_back(I.CopyBandwidth);
    if (I.SgemmRate > 0)
      Sgemms.push_back(I.SgemmRate);
    for (Row &R : More) {
      auto Same = std::find_if(Rows.begin(), Rows.end(), [&](const Row &X) {
        return X.Suite == R.Suite && X.Name == R.Name && X.Size == R.Size;
      });
      if (Same != Rows.end())
        *Same = std::move(R);
      else
        Rows.push_back(std::move(R));
    }
  }
  std::stable_sort(Rows.begin(), Rows.end(), [](const Row &A, const Row &B) {
    return std::tie(A.Suite, A.Name) < std::tie(B.Suite, B.Name);
  });
  Info.CopyBandwidth = median(Copies);
  Info.SgemmRate = median(Sgemms);
  std::filesystem::create_directories(Out);
  std::printf("device: %s; commit %s; %zu runs merged, the last on %s; "
              "device copy bandwidth %.0f GB/s (their median)\n\n",
              Info.Device.c_str(), Info.Commit.c_str(), Files.size(),
              Info.Date.c_str(), Info.CopyBandwidth / 1e9);
  for (size_t I = 0; I < Rows.size(); ++I) {
    if (I && Rows[I - 1].Suite != Rows[I].Suite)
      std::printf("\n");
    std::printf("%s\n", tableLine(Rows[I], Info.CopyBandwidth).c_str());
  }
  std::printf("\n%s", summary(Rows).c_str());
  writeJson(Out + "/results.json", Rows, Info);
  writeSvg(Out + "/chart.svg", Rows, Info);
  return 0;
}

int run(int argc, char **argv) {
  if (argc >= 2 && std::string(argv[1]) == "--merge") {
    if (argc < 4) {
      std::fputs(Usage, stderr);
      return 2;
    }
    return merge(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  }
  std::string Out, Only, Db, Suite = "all";
  std::string ExamplesDir = dataDir("examples"), ZooDir = dataDir("zoo");
  bool Quick = false, List = false;
  size_t Budget = 0;
  WiderSearch Wider;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A.rfind("--only=", 0) == 0)
      Only = A.substr(7);
    else if (A == "--quick")
      Quick = true;
    else if (A == "--list")
      List = true;
    else if (A.rfind("--suite=", 0) == 0)
      Suite = A.substr(8);
    else if (A.rfind("--db=", 0) == 0)
      Db = A.substr(5);
    else if (A.rfind("--examples=", 0) == 0)
      ExamplesDir = A.substr(11);
    else if (A.rfind("--zoo=", 0) == 0)
      ZooDir = A.substr(6);
    else if (A.rfind("--budget=", 0) == 0)
      Budget = std::stoul(A.substr(9));
    else if (A == "--exhaustive")
      Wider.On = true;
    else if (A.rfind("--exhaustive=", 0) == 0) {
      Wider.On = true;
      std::string N = A.substr(13);
      if (N.empty() || N.find_first_not_of("0123456789") != std::string::npos) {
        std::fprintf(stderr, "loopy-bench: --exhaustive=N takes a number of "
                             "variants, not '%s'\n", N.c_str());
        return 2;
      }
      Wider.Budget = std::stoul(N);
    } else if (A.rfind("--exhaustive-db=", 0) == 0)
      Wider.Database = A.substr(16);
    else if (A == "--help" || A == "-h") {
      std::fputs(Usage, stdout);
      return 0;
    } else if (A[0] != '-')
      Out = A;
    else {
      std::fprintf(stderr, "loopy-bench: unknown option %s\n%s", A.c_str(), Usage);
      return 2;
    }
  }
  if (Suite != "zoo" && Suite != "examples" && Suite != "all") {
    std::fprintf(stderr, "loopy-bench: --suite takes zoo, examples or all\n");
    return 2;
  }
  if (Out.empty() && !List) {
    std::fputs(Usage, stderr);
    return 2;
  }
  std::vector<Case> Cases;
  std::vector<ZooFile> Zoo;
  if (Suite != "zoo")
    for (Case &C : exampleCases(ExamplesDir))
      Cases.push_back(std::move(C));
  if (Suite != "examples")
    for (ZooFile &F : readZoo(ZooDir))
      if (selected(F.Name, Only))
        Zoo.push_back(std::move(F));
  for (const ZooFile &F : Zoo)
    for (Case &C : zooCases(F))
      Cases.push_back(std::move(C));
  std::erase_if(Cases, [&](const Case &C) {
    return !selected(C.Name, Only) || (Quick && !C.Quick);
  });
  if (List)
    return list(Cases, Zoo);

  std::filesystem::create_directories(Out);
  // Searches start cold, so that tuning_s is a first search's time: the
  // compiled variants go to a compile cache of this run's own, and NVRTC's
  // cache (CUDA 12.9 on, kept in the driver's compute cache across
  // processes) is off; with it, a second search compiled in a tenth of
  // the time.
  std::string Cache = (std::filesystem::temp_directory_path() /
                       "loopy-bench-cache-XXXXXX").string();
  if (!mkdtemp(Cache.data())) {
    std::fprintf(stderr, "loopy-bench: cannot make a compile cache in %s\n",
                 std::filesystem::temp_directory_path().c_str());
    return 1;
  }
  setenv("LOOPY_CACHE_DIR", Cache.c_str(), 1);
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  struct RemoveCache {
    std::string Dir;
    ~RemoveCache() {
      std::error_code E;
      std::filesystem::remove_all(Dir, E);
    }
  } Remove{Cache};
  if (Wider.On && Wider.Database.empty())
    Wider.Database = Out + "/exhaustive.db";
  Gpu G;
  RunInfo Info;
  Info.Device = G.Dev.name();
  Info.Commit = LOOPY_GIT_COMMIT;
  Info.CopyBandwidth = G.Copy;
  std::printf("device: %s; device copy bandwidth %.0f GB/s (1 GiB, read + "
              "written)\n\n",
              Info.Device.c_str(), G.Copy / 1e9);
  std::vector<Row> Rows;
  bool AllOk = true;
  for (const Case &C : Cases) {
    if (!Rows.empty() && Rows.back().Suite != C.Suite)
      std::printf("\n");
    Rows.push_back(runCase(C, G, Db, Budget, Wider));
    AllOk &= Rows.back().Ok;
    std::printf("%s\n", tableLine(Rows.back(), G.Copy).c_str());
    std::fflush(stdout);
  }
  if (G.Sgemm)
    std::printf("\nroofline: compulsory bytes at the copy bandwidth, or FLOPs "
                "at cuBLAS SGEMM's %.1f TFLOP/s (4096^3, this run), whichever "
                "takes longer\n",
                G.Sgemm / 1e12);
  std::printf("\n%s", summary(Rows).c_str());
  Info.SgemmRate = G.Sgemm;
  std::time_t Now = std::time(nullptr);
  char Date[32];
  std::strftime(Date, sizeof Date, "%Y-%m-%d %H:%M UTC", std::gmtime(&Now));
  Info.Date = Date;
  writeJson(Out + "/results.json", Rows, Info);
  writeSvg(Out + "/chart.svg", Rows, Info);
  return AllOk ? 0 : 1;
}

} // namespace

} // namespace bench

int main(int argc, char **argv) {
  try {
    return bench::run(argc, argv);
  } catch (std::exception &E) {
    std::fprintf(stderr, "loopy-bench: %s\n", E.what());
    return 1;
  }
}
