//===- Tune.cpp - loopyc --tune -------------------------------------------===//
//
// Tunes every kernel of the file at the sizes given, and prints the winner
// of each as CUDA source under a header comment saying what was measured,
// so that `loopyc K.loop --tune -o k.cu` leaves a usable file.
//
//===----------------------------------------------------------------------===//
#include "RunParams.h"

#include "loopy/Driver/Emit.h"
#include "loopy/Driver/Json.h"
#include "loopy/Runtime/Nvrtc.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <limits>
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
  OS << "//\n// rank  time          "
     << (R.FromDatabase ? "" : "TFLOP/s  GB/s     regs  blocks/SM  round  ")
     << (R.Gpus > 1 ? "gpu  " : "") << "status   schedule\n";
  size_t Shown = 0;
  for (size_t I = 0; I < R.Variants.size() && Shown < Rows; ++I, ++Shown) {
    const TunedVariant &V = R.Variants[I];
    char Line[160];
    std::string Time = V.Result.Seconds ? fixed(*V.Result.Seconds * 1e3, 4) + " ms" : "-";
    std::snprintf(Line, sizeof Line, "// %4zu  %-12s  ", I + 1, Time.c_str());
    OS << Line;
    if (!R.FromDatabase) {
      std::snprintf(Line, sizeof Line, "%-7s  %-7s  %4d  %9d  %5u  ",
                    V.Result.Seconds ? fixed(V.GFlops / 1000, 2).c_str() : "-",
                    V.Result.Seconds ? fixed(V.GBytesPerSecond, 1).c_str() : "-",
                    V.Registers, V.BlocksPerMultiprocessor, V.Round);
      OS << Line;
    }
    if (R.Gpus > 1) {
      std::snprintf(Line, sizeof Line, "%3d  ", V.Gpu);
      OS << Line;
    }
    std::snprintf(Line, sizeof Line, "%-7s  ", variantStatusName(V.Result.Status));
    OS << Line << V.Result.Schedule;
    if (V.PredictedSeconds && !R.FromDatabase)
      OS << "  (predicted " << fixed(*V.PredictedSeconds * 1e3, 4) << " ms)";
    if (!V.Result.Reason.empty())
      OS << "\n//       " << V.Result.Reason.substr(0, 200);
    OS << "\n";
  }
  if (Shown < R.Variants.size())
    OS << "// (" << R.Variants.size() - Shown << " more; --report=N shows N rows)\n";
}

static const char *searchName(TuneOptions::SearchKind S) {
  switch (S) {
  case TuneOptions::SearchKind::Ranked:
    return "ranked";
  case TuneOptions::SearchKind::Learned:
    return "learned";
  case TuneOptions::SearchKind::Families:
    break;
  }
  return "families";
}

static void printResult(std::ostream &OS, const Kernel &K,
                        const TuneRequest &Req, const TuneResult &R,
                        const gpu::DeviceInfo &Dev, const CompileOptions &Opts,
                        const TuneOptions &TO) {
  OS << "// loopyc: kernel " << K.Name << " tuned";
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
       << " s, " << W.VariantsTimed << " variants timed; --tune --retune "
          "searches again\n";
  } else {
    size_t Counts[4] = {0, 0, 0, 0};
    for (const TunedVariant &V : R.Variants)
      if (!V.SameAs)
        ++Counts[static_cast<int>(V.Result.Status)];
    OS << "// search: " << R.Variants.size() << " of " << R.PlannedVariants
       << " variants tried (";
    if (R.OneVariant)
      OS << "--variant";
    else if (TO.Exhaustive)
      OS << "--exhaustive";
    else
      OS << "--budget=" << (TO.Budget ? TO.Budget : TuneOptions::DefaultBudget)
         << ", --search="
         << searchName(TO.Search);
    if (R.EarlierTimings)
      OS << ", learning from " << R.EarlierTimings
         << " timings of earlier searches";
    if (R.Gpus > 1)
      OS << ", on " << R.Gpus << " GPUs";
    if (R.OccupancyRuns)
      OS << ", " << R.OccupancyRuns << " more with launch bounds";
    if (R.PredictionError > 0)
      OS << ", the model's median prediction error a factor of "
         << fixed(R.PredictionError, 2);
    OS << "): " << Counts[0] << " verified and timed, " << Counts[1]
       << " wrong, " << Counts[2] << " failed, " << Counts[3]
       << " dropped, " << R.SameCode << " with the code of a better-ranked one; "
       << fixed(W.TuningSeconds, 1) << " s (planning "
       << fixed(R.PlanSeconds, 1) << " s, preparing the data "
       << fixed(R.PrepareSeconds, 1) << " s, compiling "
       << fixed(R.CompileSeconds, 1) << " s, verification runs "
       << fixed(R.RunSeconds, 1) << " s, checks " << fixed(R.CheckSeconds, 1)
       << " s, timing " << fixed(R.TimingSeconds, 1) << " s); seed "
       << TO.Seed << "\n";
    if (R.OneVariant)
      OS << "// not stored: --variant times one variant and keeps no "
            "result\n";
    else if (R.DatabaseInMemory)
      OS << "// not stored: " << R.Database.string()
         << " is a device, so the tuning database lived in memory\n";
    else
      OS << "// stored in " << R.Database.string() << "\n";
  }
  if (Opts.Report)
    printReport(OS, R, Opts.Report);
  OS << W.CudaSource;
}

/// --tune --format=json: the row of kernel \p K's result \p R.
static Json resultJson(const Kernel &K, const TuneRequest &Req,
                       const TuneResult &R, const gpu::DeviceInfo &Dev) {
  Json Params = Json::object();
  for (auto &[Name, V] : Req.Params)
    Params[Name] = V;
  const TuningRecord &W = R.Winner;
  Json Variants = Json::array();
  for (const TunedVariant &V : R.Variants) {
    Json Row{{"schedule", V.Result.Schedule},
             {"status", variantStatusName(V.Result.Status)},
             {"median_s", V.Result.Seconds ? Json(*V.Result.Seconds) : Json()}};
    if (!R.FromDatabase) {
      Row["rank"] = V.Rank;
      Row["round"] = V.Round;
      if (V.Repeats)
        Row["repeats"] = V.Repeats;
      if (R.Gpus > 1)
        Row["gpu"] = V.Gpu;
      if (V.PredictedSeconds)
        Row["predicted_s"] = *V.PredictedSeconds;
    }
    if (!V.Result.Reason.empty())
      Row["reason"] = V.Result.Reason;
    Variants.push_back(std::move(Row));
  }
  // Where this search's time went (none where the database answered).
  Json Phases;
  if (!R.FromDatabase)
    Phases = Json{{"planning_s", R.PlanSeconds},
                  {"preparing_s", R.PrepareSeconds},
                  {"compiling_s", R.CompileSeconds},
                  {"verification_runs_s", R.RunSeconds},
                  {"checks_s", R.CheckSeconds},
                  {"timing_s", R.TimingSeconds}};
  return Json{{"kernel", K.Name},
              {"params", std::move(Params)},
              {"device", Dev.Name},
              {"arch", Dev.arch()},
              {"from_database", R.FromDatabase},
              {"database", R.DatabaseInMemory ? Json() : Json(R.Database.string())},
              {"winner", W.Schedule},
              {"median_s", W.MedianSeconds},
              {"gflops", W.GFlops},
              {"gbytes_per_s", W.GBytesPerSecond},
              {"tuning_s", W.TuningSeconds},
              {"phases", std::move(Phases)},
              {"variants_timed", W.VariantsTimed},
              {"variants", std::move(Variants)},
              {"cuda", W.CudaSource}};
}

static TuneOptions tuneOptions(const CompileOptions &Opts, std::ostream &Err) {
  TuneOptions TO;
  TO.Budget = Opts.Budget;
  TO.Exhaustive = Opts.Exhaustive;
  switch (Opts.Search) {
  case CompileOptions::SearchKind::Families:
    TO.Search = TuneOptions::SearchKind::Families;
    break;
  case CompileOptions::SearchKind::Ranked:
    TO.Search = TuneOptions::SearchKind::Ranked;
    break;
  case CompileOptions::SearchKind::Learned:
    TO.Search = TuneOptions::SearchKind::Learned;
    break;
  }
  TO.Retune = Opts.Retune;
  TO.Variant = Opts.Variant;
  TO.Gpus = Opts.Gpus;
  TO.OccupancyTries = Opts.OccupancyTries;
  if (Opts.Verify == CompileOptions::VerifyKind::Whole)
    TO.WholeCheckFlops = TO.WholeCheckBytes =
        std::numeric_limits<double>::infinity();
  else if (Opts.Verify == CompileOptions::VerifyKind::Sampled)
    TO.WholeCheckFlops = -1;
  TO.Seed = Opts.Seed;
  TO.DbPath = Opts.Db;
  TO.Planner = Opts.Planner;
  TO.SharedFromDevice = Opts.SharedFromDevice;
  TO.Jobs = Opts.Jobs;
  TO.Plant = Opts.Plant;
  TO.PlantAt = Opts.PlantAt;
  if (&Err == &std::cerr && isatty(STDERR_FILENO))
    TO.Progress = &Err;
  return TO;
}

/// The request to tune kernel \p KI of \p C at \p Given (the values of
/// the parameters not fixed in its code); a Failure, not yet reported,
/// where the kernel cannot be tuned.
static Expected<TuneRequest> tuneRequest(CheckedSource &C, size_t KI,
                                         const std::map<std::string, long> &Given) {
  const Kernel &K = C.kernels()[KI];
  TuneRequest R;
  R.K = &K;
  R.Source = &C;
  R.KernelIndex = KI;
  R.Params = Given;
  for (auto &[Name, V] : K.Fixed)
    R.Params[Name] = V;
  // The database knows the kernel by its hash without the -D values.
  auto Parametric = C.parametricKernel(KI);
  if (!Parametric) {
    if (Parametric.failure().isInternal())
      return Parametric.takeFailure();
    return Failure::user("cannot tune kernel " + quote(K.Name) + ": " +
                         Parametric.failure().Message);
  }
  R.KernelHash = kernelHash(**Parametric);
  return R;
}

/// Tunes the kernels of \p Requests on \p W (or reads them from the
/// database) and prints each winner; \p Results gets the results.
static Status tuneAndPrint(const std::vector<TuneRequest> &Requests,
                           const TuneOptions &TO, gpu::GpuWorker &W,
                           const CompileOptions &Opts, std::ostream &Out,
                           DiagnosticEngine &Diags,
                           std::vector<TuneResult> &Results) {
  bool Failed = false;
  Json Rows = Json::array(); // --format=json
  for (const TuneRequest &R : Requests) {
    const Kernel &K = *R.K;
    auto Res = tune(R, TO, W, Diags);
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
    if (Opts.FormatJson)
      Rows.push_back(resultJson(K, R, *Res, W.device()));
    else
      printResult(Out, K, R, *Res, W.device(), Opts, TO);
    Results.push_back(std::move(*Res));
  }
  if (Opts.FormatJson)
    Out << printJson(Rows) << "\n";
  if (Failed)
    return Failure::user("");
  return success();
}

Status tuneKernels(CheckedSource &C, const CompileOptions &Opts,
                   std::ostream &Out, std::ostream &Err,
                   DiagnosticEngine &Diags) {
  const std::vector<Kernel> &Kernels = C.kernels();
  TuneOptions TO = tuneOptions(Opts, Err);

  // Parameter values first: a missing one is reported before the GPU is
  // looked for.
  std::vector<TuneRequest> Requests;
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const Kernel &K = Kernels[KI];
    auto Given = runParams(K, Opts, "--tune", Diags);
    if (!Given)
      return Failure::user("");
    auto R = tuneRequest(C, KI, *Given);
    if (!R) {
      if (R.failure().isInternal())
        return R.takeFailure();
      Diags.error(K.Loc, R.failure().Message);
      return Failure::user("");
    }
    if (!K.Stmts.empty())
      Requests.push_back(std::move(*R));
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
  std::vector<TuneResult> Results;
  return tuneAndPrint(Requests, TO, **Worker, Opts, Out, Diags, Results);
}

/// \p Message up to its first parenthesis: the gist of a NoGpuError.
static std::string gist(const std::string &Message) {
  return Message.substr(0, Message.find(" ("));
}

/// One line on what the tuning in \p Results did, after "printing the
/// tuned winner".
static std::string tunedNote(const std::vector<TuneResult> &Results,
                             const gpu::DeviceInfo &Dev) {
  size_t FromDb = 0, Timed = 0;
  double Seconds = 0;
  for (const TuneResult &R : Results) {
    if (R.FromDatabase) {
      ++FromDb;
      continue;
    }
    Timed += R.Variants.size();
    Seconds += R.Winner.TuningSeconds;
  }
  size_t Tuned = Results.size() - FromDb;
  bool Several = Results.size() > 1;
  std::string Note = "printing the tuned winner";
  if (Several)
    Note += "s of " + std::to_string(Results.size()) + " kernels";
  Note += " on " + Dev.Name + ": ";
  if (Tuned)
    Note += (Several ? std::to_string(Tuned) + " " : std::string()) +
            "tuned now (" + std::to_string(Timed) + " variants tried in " +
            fixed(Seconds, 1) + " s)";
  if (Tuned && FromDb)
    Note += ", ";
  if (FromDb)
    Note += (Several ? std::to_string(FromDb) + " " : std::string()) +
            "from the tuning database";
  const TuneResult &Any = Results.front();
  std::string Db = Any.Database.string();
  if (Any.DatabaseInMemory)
    Note += "; not stored: " + Db + " is a device";
  else if (FromDb)
    Note += " " + Db;
  else
    Note += ", stored in " + Db;
  return Note;
}

Status emitBest(CheckedSource &C, const CompileOptions &Opts,
                std::ostream &Out, std::ostream &Err,
                DiagnosticEngine &Diags) {
  CompileOptions First = Opts;
  First.Emit = EmitKind::CUDA;
  auto Untuned = [&](const std::string &Why) -> Status {
    Status S = emitDeviceCode(C, First, Out, Diags);
    if (S)
      Diags.report(Severity::Note, {},
                   "printing the planner's first-ranked variant, untuned: " +
                       Why);
    return S;
  };
  // Nothing to print, nothing to say.
  if (std::all_of(C.kernels().begin(), C.kernels().end(),
                  [](const Kernel &K) { return K.Stmts.empty(); }))
    return emitDeviceCode(C, First, Out, Diags);
  auto Worker = gpu::startGpuWorker();
  if (!Worker) {
    const Failure &F = Worker.failure();
    if (F.isInternal())
      return Untuned("the GPU worker cannot start (" + F.Message + ")");
    return Untuned("no GPU found (" + gist(F.Message) + ")");
  }
  // Tuning runs the kernel, so every size needs a value.
  std::vector<TuneRequest> Requests;
  for (size_t KI = 0; KI < C.kernels().size(); ++KI) {
    const Kernel &K = C.kernels()[KI];
    if (K.Stmts.empty())
      continue;
    std::vector<std::string> Missing = paramsWithoutValue(K, Opts);
    if (!Missing.empty()) {
      std::string Names;
      for (const std::string &P : Missing)
        Names += (Names.empty() ? "" : ", ") + P;
      return Untuned("tuning runs kernel " + quote(K.Name) +
                     " and needs a value for " + Names + " (-D NAME=VALUE)");
    }
    auto R = tuneRequest(C, KI, Opts.RunParams);
    if (!R) {
      if (R.failure().isInternal())
        return R.takeFailure();
      return Untuned(R.failure().Message);
    }
    Requests.push_back(std::move(*R));
  }
  TuneOptions TO = tuneOptions(Opts, Err);
  std::vector<TuneResult> Results;
  Status S = tuneAndPrint(Requests, TO, **Worker, Opts, Out, Diags, Results);
  if (S)
    Diags.report(Severity::Note, {}, tunedNote(Results, (*Worker)->device()));
  return S;
}

static std::filesystem::path dbPath(const std::string &Db) {
  return Db.empty() ? defaultTuningDbPath() : std::filesystem::path(Db);
}

Status exportTuningDb(const std::string &Db, const std::string &File,
                      std::ostream &Out, std::ostream &Err) {
  try {
    TuningDB D(dbPath(Db));
    std::string Text = exportTuningRows(D);
    size_t Rows = D.rows().size();
    if (File == "-") {
      Out << Text;
    } else {
      std::ofstream F(File, std::ios::binary);
      if (!(F << Text) || !F.flush())
        throw TuningDBError("cannot write " + quote(File));
    }
    Err << "loopyc: note: exported " << Rows << " result"
        << (Rows == 1 ? "" : "s") << " of the tuning database "
        << D.path().string() << " to " << (File == "-" ? "standard output" : File)
        << "\n";
    return success();
  } catch (TuningDBError &E) {
    Err << "loopyc: error: " << E.what() << "\n";
  }
  return Failure::user("");
}

Status mergeTuningDb(const std::string &Db, const std::string &File,
                     std::ostream &Err) {
  try {
    std::ifstream F(File, std::ios::binary);
    if (!F)
      throw TuningDBError("cannot open " + quote(File) +
                          "; give a file that loopyc --db-export wrote");
    std::string Text((std::istreambuf_iterator<char>(F)), {});
    // Every row is read and checked before the database is opened.
    std::vector<TuningDB::Row> Rows = parseTuningRows(Text, File);
    TuningDB D(dbPath(Db));
    TuningDB::MergeCounts C = D.merge(Rows);
    Err << "loopyc: note: merged " << File << " into the tuning database "
        << D.path().string() << ": " << C.Added << " added, " << C.Replaced
        << " replaced by a faster winner, " << C.Kept
        << " kept (the stored winner was as fast or faster)\n";
    return success();
  } catch (TuningDBError &E) {
    Err << "loopyc: error: " << E.what() << "\n";
  }
  return Failure::user("");
}

} // namespace loopy
