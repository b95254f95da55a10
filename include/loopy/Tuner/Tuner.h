//===- Tuner.h - Choosing a variant by running it on the GPU ----*- C++ -*-===//
//
// "Dumb enumeration, choose by running on the hardware": the planner ranks
// the variants by its static cost model; the tuner lowers the best ranked
// ones, compiles them with NVRTC on every core, and runs each on the GPU
// through a GpuWorker. Every variant is verified before its time counts:
// against the reference interpreter (the whole output where the kernel is
// small enough to interpret, else a sample of output points), and whole-
// array against the first verified variant. Wrong, failing and faulting
// variants are recorded and never chosen. The winner goes into the tuning
// database, keyed so that a second tuning of the same kernel at the same
// sizes on the same GPU and software returns it without running anything.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_TUNER_H
#define LOOPY_TUNER_TUNER_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Interp/Work.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Runtime/GpuWorker.h"
#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Expected.h"
#include "loopy/Tuner/TunedCode.h"
#include "loopy/Tuner/TuningDB.h"

#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

struct TuneOptions {
  /// Variants timed at most; 0 for the default.
  size_t Budget = 0;
  static constexpr size_t DefaultBudget = 64;
  /// Which variants the budget runs: Families, a spread of the variants'
  /// families and then the families that measured fastest, in two rounds
  /// (Tuner/Search.h); Ranked, the static model's best ranked; Learned,
  /// the spread of families and then, round after round, the variants a
  /// model fit on the measured ones predicts fastest (Tuner/Learner.h).
  enum class SearchKind { Families, Ranked, Learned };
  SearchKind Search = SearchKind::Families;
  /// Time every variant the planner lists.
  bool Exhaustive = false;
  /// GPUs of the host the candidates are spread over, each verified and
  /// timed on one, the fastest few timed again on the caller's (the one
  /// the winner runs on): at most this many, of those like the caller's
  /// GPU (the same name and compute capability); 0 for all of them.
  unsigned Gpus = 0;
  /// After the search: the fastest variants (at most this many, each one
  /// kernel) whose registers kept a block out of each multiprocessor run
  /// again with one block more asked of the compiler (Schedule::MinBlocks,
  /// __launch_bounds__), beside the budget; 0: none.
  unsigned OccupancyTries = 3;
  /// Search again even where the database holds a result (and replace it).
  bool Retune = false;
  /// Where not empty: time this variant alone (a name findVariant takes:
  /// schedule strings, or an index into the ranked list), verified as any
  /// other, with neither the database read nor written, nor an occupancy
  /// round.
  std::string Variant;
  /// Seed of the random inputs.
  unsigned long Seed = 1;
  /// The tuning database; empty for defaultTuningDbPath().
  std::string DbPath;
  /// Compiled variants are cached here; empty for defaultCompileCacheDir().
  std::string CacheDir;
  PlannerOptions Planner;
  /// The planner's limit of shared memory per block is the device's (what
  /// a block may opt in to) rather than Planner.MaxSharedBytes.
  bool SharedFromDevice = false;
  /// Threads that lower and compile the candidates (0: one per core).
  unsigned Jobs = 0;
  /// Testing the tuner: plant this bug (see CodeGen/Plant.h) in the
  /// variant ranked second of those timed; SameCodePlant gives it the
  /// first one's program instead.
  std::string Plant;
  static constexpr const char *SameCodePlant = "same-code";
  /// The bug goes in this candidate of the first round instead (0 is the
  /// first), where it has that many.
  unsigned PlantAt = 1;
  /// Timing: warm-up runs, then repeats until this much time has passed.
  unsigned Warmup = 2;
  double MinTimeSeconds = 0.05;
  unsigned MinRepeats = 5;
  unsigned MaxRepeats = 200;
  /// The search times each candidate over a shorter window (at least
  /// ScreenRepeats runs and ScreenSeconds); the Retimed fastest are then
  /// timed again over the whole window above, on the GPU the winner runs
  /// on, and the winner is the fastest of those times.
  double ScreenSeconds = 0.01;
  unsigned ScreenRepeats = 3;
  unsigned Retimed = 3;
  /// A run of one variant that takes longer is stopped and counts as failed.
  std::chrono::milliseconds RunTimeout{10000};
  /// Output points of each statement checked against the interpreter
  /// where the kernel is too large to interpret whole.
  size_t SamplePoints = 256;
  /// Kernels of at most this many FLOPs and bytes of outputs are checked
  /// whole against the interpreter (a 1 GiB copy is not: comparing its
  /// every output on the host took about a second per variant).
  double WholeCheckFlops = 2e8;
  double WholeCheckBytes = 16 << 20;
  /// For the larger ones, every candidate after the first verified one is
  /// compared with that one on the device (GpuWorker::compare), its outputs
  /// never copied back whole: its sampled points are gathered. Off, they
  /// are copied back and compared on the host.
  bool DeviceChecks = true;
  /// Draw a progress bar on this stream (a terminal); none if null.
  std::ostream *Progress = nullptr;
};

/// One kernel to tune, at one set of sizes.
struct TuneRequest {
  /// The checked kernel, with the -D values fixed: kernel number
  /// KernelIndex of Source, which lowers it on every core (lowerVariants).
  const Kernel *K = nullptr;
  const CheckedSource *Source = nullptr;
  size_t KernelIndex = 0;
  /// kernelHash of the kernel without -D values.
  std::string KernelHash;
  /// Every index parameter: the kernel's Fixed ones and the run values.
  ParamValues Params;
};

/// A variant's row in the ranking.
struct TunedVariant {
  VariantResult Result;
  size_t Rank = 0; // position in the planner's ranking
  double GFlops = 0, GBytesPerSecond = 0;
  int Registers = 0;
  int BlocksPerMultiprocessor = 0;
  /// Its printed code and launches are a better-ranked variant's: it was
  /// neither compiled nor run, and has that one's result (its reason says
  /// "same code as SCHEDULE").
  bool SameAs = false;
  /// The round of the search that ran it (Tuner/Search.h): 1, or 2 for
  /// the variants of the families that measured fastest; further rounds
  /// (the learned search's, and those that take the place of candidates
  /// with a better-ranked one's code) count on from there.
  unsigned Round = 1;
  /// The ordinal of the GPU that timed it.
  int Gpu = 0;
  /// The timed runs its median time comes from: the short window of the
  /// search, or the whole window where it was among the fastest timed
  /// again (TuneOptions::Retimed).
  unsigned Repeats = 0;
  /// The learned search's rounds after the first: the time its model
  /// predicted when it chose the variant.
  std::optional<double> PredictedSeconds;
};

struct TuneResult {
  /// The winner came from the database; nothing ran.
  bool FromDatabase = false;
  TuningKey Key;
  TuningRecord Winner;
  /// The winner's launches, decoded from Winner.Launches, which go with
  /// Winner.Cubin; empty where the database's row has no compiled code
  /// (a row of schema version 2): the winner must be lowered and compiled
  /// again to run.
  std::vector<TunedLaunch> Launches;
  /// Every variant tried, fastest verified first, then the others; from
  /// the database, without ranks and resources.
  std::vector<TunedVariant> Variants;
  size_t PlannedVariants = 0;
  KernelWork Work;
  std::filesystem::path Database;
  /// The database was a character device (/dev/null): nothing was stored.
  bool DatabaseInMemory = false;
  /// The search timed the one variant TuneOptions::Variant names and
  /// stored nothing.
  bool OneVariant = false;
  /// Variants tried that had a better-ranked one's code (SameAs).
  size_t SameCode = 0;
  /// GPUs the search ran on (TuneOptions::Gpus).
  size_t Gpus = 1;
  /// Variants run again with launch bounds (TuneOptions::OccupancyTries).
  size_t OccupancyRuns = 0;
  /// The learned search: the median over the variants its model chose and
  /// that were timed of |log(time / predicted)|, as a factor (1.2: the
  /// predictions were 20% off, either way); 0 where there are none.
  double PredictionError = 0;
  /// The learned search: timed variants of earlier searches on this GPU
  /// that its model learned from, besides this search's.
  size_t EarlierTimings = 0;
  /// Where the search's time went: planning (the variants, their ranks
  /// and features), preparing the inputs and the GPU's buffers, lowering
  /// and waiting for NVRTC (which runs in the background while the GPU
  /// runs the candidates compiled), loading and the verification runs on
  /// the GPU, the checks on the CPU, the timed runs.
  double PlanSeconds = 0, PrepareSeconds = 0, CompileSeconds = 0,
         RunSeconds = 0, CheckSeconds = 0, TimingSeconds = 0;
};

/// Tunes \p R on the GPU of \p W. Where no variant is both correct and
/// runnable (nothing is stored then) or the database cannot be used, the
/// error is reported on \p Diags (at the kernel, or naming the database
/// file) and the result is a user Failure; a GPU worker that fails is an
/// internal Failure.
Expected<TuneResult> tune(const TuneRequest &R, const TuneOptions &Opts,
                          gpu::GpuWorker &W, DiagnosticEngine &Diags);

/// The result stored for \p R on \p Dev, read without a GPU worker:
/// nothing where the database has none (or \p Opts asks to retune). A
/// row whose compiled code is damaged (its hash does not match) or cannot
/// be read is a miss, with a warning on \p Diags at the kernel; the
/// search that follows replaces it. A database that cannot be used is a
/// user Failure, reported on \p Diags.
Expected<std::optional<TuneResult>> lookupTuned(const TuneRequest &R,
                                                const TuneOptions &Opts,
                                                const gpu::DeviceInfo &Dev,
                                                DiagnosticEngine &Diags);

/// What makes two lowered variants the same program, so that the search
/// compiles and times it once: \p Cuda (printProgram of \p P) without the
/// lines naming the schedule, and each kernel's launch shape (block, grid,
/// dynamic shared memory, aligned arrays).
std::string codeIdentity(const std::string &Cuda,
                         const device::DeviceProgram &P);

/// The key under which \p R's result, searched under \p Planner, is stored
/// on \p Dev.
TuningKey tuningKey(const TuneRequest &R, const PlannerOptions &Planner,
                    const gpu::DeviceInfo &Dev);

/// The planner's options of a search on \p Dev: Opts.Planner, with the
/// device's shared memory per block where Opts.SharedFromDevice.
PlannerOptions plannerFor(const TuneOptions &Opts, const gpu::DeviceInfo &Dev);

/// The planner's options as the database keys them:
/// "max_register_outputs=64,max_shared=49152,max_threads=1024,min_blocks=1,min_threads=32".
std::string plannerOptionsText(const PlannerOptions &Opts);

/// The launches of \p P at \p Params: one per kernel whose grid is not
/// empty, arguments bound by name (arrays to the buffers of that name). A
/// user Failure where a grid is past the device's limits (launchBlocks).
Expected<std::vector<gpu::Launch>>
programLaunches(isl::ctx Ctx, const device::DeviceProgram &P,
                const HostData &Data);

} // namespace loopy

#endif
