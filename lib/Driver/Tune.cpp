//===- Tune.cpp - loopyc --tune -------------------------------------------===//
//
// Tunes every kernel of the file at the sizes given, and prints the winner
// of each as CUDA source under a header comment saying what was measured,
// so that `loopyc K.loop --tune -o k.cu` leaves a usable file.
//
//===----------------------------------------------------------------------===//
#include "RunParams.h"

#include "loopy/Driver/Emit.h"
#include "loopy/Runtime/Nvrtc.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace loopy {

static std::string fixed(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*f", Digits, V);
  return Buf;
}

/// "12.3 TFLOP/s" or "456.7 GFLOP/s".
static std::string flopRate(double GFlops) {
  return GFlops >= 1000 ? fixed(GFlops / 1000, 2) + " TFLOP/s"
                        : fixed(GFlops, 1) + " GFLOP/s";
}

static std::string utcTime(int64_t T) {
  std::time_t TT = static_cast<std::time_t>(T);
  std::tm TM{};
  gmtime_r(&TT, &TM);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%d %H:%M UTC", &TM);
  return Buf;
}

static void printReport(std::ostream &OS, const TuneResult &R, size_t Rows) {
  OS << "//\n// rank  time          " << (R.FromDatabase ? "" : "TFLOP/s  GB/s     regs  blocks/SM  ")
     << "status   schedule\n";
  size_t Shown = 0;
  for (size_t I = 0; I < R.Variants.size() && Shown < Rows; ++I, ++Shown) {
    const TunedVariant &V = R.Variants[I];
    char Line[160];
    std::string Time = V.Result.Seconds ? fixed(*V.Result.Seconds * 1e3, 4) + " ms" : "-";
    std::snprintf(Line, sizeof Line, "// %4zu  %-12s  ", I + 1, Time.c_str());
    OS << Line;
    if (!R.FromDatabase) {
      std::snprintf(Line, sizeof Line, "%-7s  %-7s  %4d  %9d  ",
                    V.Result.Seconds ? fixed(V.GFlops / 1000, 2).c_str() : "-",
                    V.Result.Seconds ? fixed(V.GBytesPerSecond, 1).c_str() : "-",
                    V.Registers, V.BlocksPerMultiprocessor);
      OS << Line;
    }
    std::snprintf(Line, sizeof Line, "%-7s  ", variantStatusName(V.Result.Status));
    OS << Line << V.Result.Schedule;
    if (!V.Result.Reason.empty())
      OS << "\n//       " << V.Result.Reason.substr(0, 200);
    OS << "\n";
  }
  if (Shown < R.Variants.size())
    OS << "// (" << R.Variants.size() - Shown << " more; --report=N shows N rows)\n";
}

static void printResult(std::ostream &OS, const Kernel &K,
                        const TuneRequest &Req, const TuneResult &R,
                        const gpu::DeviceInfo &Dev, const CompileOptions &Opts,
                        const TuneOptions &TO) {
  OS << "// loopyc --tune: kernel " << K.Name;
  if (!Req.Params.empty()) {
    OS << " at";
    const char *Sep = " ";
    for (auto &[Name, V] : Req.Params) {
      OS << Sep << Name << "=" << V;
      Sep = ", ";
    }
  }
  OS << "\n// device: " << Dev.Name << " (" << Dev.arch() << ", "
     << Dev.Multiprocessors << " multiprocessors), driver "
     << Dev.driverVersionString() << ", NVRTC " << nvrtcVersionString() << "\n";
  const TuningRecord &W = R.Winner;
  OS << "// winner: " << W.Schedule << "\n";
  OS << "// time: " << fixed(W.MedianSeconds * 1e3, 4) << " ms (median), "
     << flopRate(W.GFlops) << ", " << fixed(W.GBytesPerSecond, 1)
     << " GB/s (" << fixed(R.Work.Flops / 1e9, 3) << " GFLOP, "
     << fixed(R.Work.bytes() / 1e6, 1) << " MB compulsory traffic)\n";
  if (R.FromDatabase) {
    OS << "// from the tuning database " << R.Database.string() << ": tuned "
       << utcTime(W.Timestamp) << " in " << fixed(W.TuningSeconds, 1)
       << " s, " << W.VariantsTimed << " variants timed; --retune searches "
          "again\n";
  } else {
    size_t Counts[4] = {0, 0, 0, 0};
    for (const TunedVariant &V : R.Variants)
      ++Counts[static_cast<int>(V.Result.Status)];
    OS << "// search: " << R.Variants.size() << " of " << R.PlannedVariants
       << " variants tried (";
    if (TO.Exhaustive)
      OS << "--exhaustive";
    else
      OS << "--budget=" << (TO.Budget ? TO.Budget : TuneOptions::DefaultBudget);
    OS << "): " << Counts[0] << " verified and timed, " << Counts[1]
       << " wrong, " << Counts[2] << " failed, " << Counts[3]
       << " dropped; " << fixed(W.TuningSeconds, 1) << " s (compiling "
       << fixed(R.CompileSeconds, 1) << " s, verification runs "
       << fixed(R.RunSeconds, 1) << " s, checks " << fixed(R.CheckSeconds, 1)
       << " s, timing " << fixed(R.TimingSeconds, 1) << " s); seed "
       << TO.Seed << "\n";
    if (R.DatabaseInMemory)
      OS << "// not stored: " << R.Database.string()
         << " is a device, so the tuning database lived in memory\n";
    else
      OS << "// stored in " << R.Database.string() << "\n";
  }
  if (Opts.Report)
    printReport(OS, R, Opts.Report);
  OS << W.CudaSource;
}

Status tuneKernels(CheckedSource &C, const CompileOptions &Opts,
                   std::ostream &Out, std::ostream &Err,
                   DiagnosticEngine &Diags) {
  const std::vector<Kernel> &Kernels = C.kernels();
  TuneOptions TO;
  TO.Budget = Opts.Budget;
  TO.Exhaustive = Opts.Exhaustive;
  TO.Retune = Opts.Retune;
  TO.Seed = Opts.Seed;
  TO.DbPath = Opts.Db;
  TO.Planner = Opts.Planner;
  TO.Jobs = Opts.Jobs;
  TO.Plant = Opts.Plant;
  if (&Err == &std::cerr && isatty(STDERR_FILENO))
    TO.Progress = &Err;

  // Parameter values first: a missing one is reported before the GPU is
  // looked for.
  std::vector<TuneRequest> Requests(Kernels.size());
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const Kernel &K = Kernels[KI];
    auto Given = runParams(K, Opts, "--tune", Diags);
    if (!Given)
      return Failure::user("");
    TuneRequest &R = Requests[KI];
    R.K = &K;
    R.Source = &C;
    R.KernelIndex = KI;
    R.Params = *Given;
    for (auto &[Name, V] : K.Fixed)
      R.Params[Name] = V;
    // The database knows the kernel by its hash without the -D values.
    auto Parametric = C.parametricKernel(KI);
    if (!Parametric) {
      if (Parametric.failure().isInternal())
        return Parametric.takeFailure();
      Diags.error(K.Loc, "cannot tune kernel " + quote(K.Name) + ": " +
                             Parametric.failure().Message);
      return Failure::user("");
    }
    R.KernelHash = kernelHash(**Parametric);
  }

  auto Worker = gpu::startGpuWorker();
  if (!Worker) {
    const Failure &F = Worker.failure();
    if (F.isInternal()) // the worker cannot start
      Diags.error("--tune: " + F.Message);
    else
      Diags.error("--tune needs a GPU: " + F.Message +
                  "; --emit=cuda works without one, from the static ranking");
    return Failure::user("");
  }
  const gpu::DeviceInfo &Dev = (*Worker)->device();
  bool Failed = false;
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const Kernel &K = Kernels[KI];
    if (K.Stmts.empty())
      continue;
    TuneRequest &R = Requests[KI];
    auto Res = tune(R, TO, **Worker, Diags);
    if (!Res) {
      if (Res.failure().isInternal())
        return Res.takeFailure();
      Failed = true;
      continue;
    }
    for (const TunedVariant &V : Res->Variants)
      if (V.Result.Status == VariantStatus::Wrong)
        Diags.warning(K.Loc, "variant " + V.Result.Schedule + " of kernel " +
                                 quote(K.Name) +
                                 " computed wrong results and was not "
                                 "chosen: " +
                                 V.Result.Reason);
    printResult(Out, K, R, *Res, Dev, Opts, TO);
  }
  if (Failed)
    return Failure::user("");
  return success();
}

} // namespace loopy
