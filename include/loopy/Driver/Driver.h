//===- Driver.h - The loopyc compilation pipeline ---------------*- C++ -*-===//
//
// runCompiler is the whole of `loopyc` behind its option parsing: read the
// source, check it through the compile entry (Compile/Compile.h), and emit,
// check or tune what was asked for. It returns a Status: success, or a
// Failure -- a user error (reported as diagnostics) or an internal one.
// tools/loopyc turns it into the process exit status.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_DRIVER_H
#define LOOPY_DRIVER_DRIVER_H

#include "loopy/Planner/Planner.h"
#include "loopy/Support/Expected.h"

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace loopy {

/// The outcome of a step that produces nothing but its output: success, or
/// the Failure. A Failure with an empty message was reported already (as
/// diagnostics); one with a message still needs reporting.
using Status = Expected<std::monostate>;

/// A successful Status.
inline Status success() { return std::monostate(); }

/// What loopyc produces. Best, the default (no --emit), is CUDA source: the
/// tuned winner where a GPU is present and every index parameter has a
/// value, else the planner's first-ranked variant, with a note saying
/// which. CUDA is always the first-ranked variant (or the one --variant
/// names), never tuned. CudaModule writes NAME.cu and NAME.h (Output is
/// NAME) for nvcc builds (emitCudaModule).
enum class EmitKind { Best, IR, CUDA, OpenCL, PTX, Variants, JSON, CudaModule };

/// Parses an --emit value; nullopt if unknown. Best has no spelling.
std::optional<EmitKind> parseEmitKind(const std::string &S);

struct CompileOptions {
  /// A path, or "-" for standard input.
  std::string Input;
  /// The text to compile where the caller has it already (C and C++ input,
  /// which loopy-extract lifted to .loop text), named InputName in
  /// diagnostics; else the text is read from Input.
  std::optional<std::string> InputText;
  std::string InputName;
  /// Where the output goes; empty for standard output.
  std::string Output;
  EmitKind Emit = EmitKind::Best;
  /// --format=json: --emit=variants as one JSON array.
  bool FormatJson = false;
  std::map<std::string, long> Defines;
  std::string Variant;
  /// Emit (or check) every variant rather than one.
  bool AllVariants = false;
  /// --check=nvrtc: compile this many variants per kernel (evenly spread
  /// over the ranking, the first included; 0 for all) instead of emitting.
  bool CheckNvrtc = false;
  /// --check=opencl: run sampled variants on PoCL against the interpreter.
  bool CheckOpenCL = false;
  long Sample = 200;
  /// --every-strategy: the sample also holds the best ranked variant of
  /// every reduction strategy and prefetch combination, past Sample where
  /// there are more of them (selectVariants).
  bool EveryStrategy = false;
  /// Values of index parameters for runs (--check=opencl) that stay kernel
  /// arguments in the generated code (-D values become constants).
  std::map<std::string, long> RunParams;
  /// The value of every index parameter neither fixed nor in RunParams.
  std::optional<long> AllParams;
  /// Seed of the random inputs of runs.
  unsigned long Seed = 1;
  /// Damage each variant before running it (drop-barrier,
  /// skip-first-iteration): shows that the check catches such bugs.
  std::string Plant;
  /// With --tune: the candidate (in the order run) the bug goes in.
  unsigned PlantAt = 1;
  /// --tune: choose the fastest verified variant on the GPU (or read it
  /// from the tuning database) and print it.
  bool Tune = false;
  /// Variants timed at most (0: the tuner's default); --exhaustive: all.
  size_t Budget = 0;
  bool Exhaustive = false;
  /// --search: which variants the budget runs (TuneOptions::SearchKind).
  enum class SearchKind { Families, Ranked, Learned };
  SearchKind Search = SearchKind::Families;
  /// --verify: how the tuner checks each variant's outputs; Auto keeps
  /// TuneOptions::WholeCheckFlops.
  enum class VerifyKind { Auto, Whole, Sampled };
  VerifyKind Verify = VerifyKind::Auto;
  /// --gpus: GPUs the search spreads over (TuneOptions::Gpus).
  unsigned Gpus = 0;
  /// --occupancy-tries (TuneOptions::OccupancyTries).
  unsigned OccupancyTries = 3;
  /// Search again even where the database has a result.
  bool Retune = false;
  /// Rows of the ranked table to print after tuning (0: none).
  size_t Report = 0;
  /// The tuning database; empty for the default.
  std::string Db;
  /// Target of --emit=ptx.
  std::string Arch = "sm_90";
  /// Planner constraints (--min-threads, --min-blocks, --max-shared).
  PlannerOptions Planner;
  /// Without --max-shared: tuning plans with the GPU's shared memory per
  /// block (TuneOptions::SharedFromDevice), other commands with
  /// Planner.MaxSharedBytes.
  bool SharedFromDevice = false;
  /// Threads that lower, compile and run variants (0: one per core).
  unsigned Jobs = 0;
  /// Bound on isl's work per kernel (0: unlimited).
  unsigned long IslMaxOperations = 20000000;
};

/// Compiles as \p Opts says; the output goes to \p Out (or the file
/// Opts.Output), diagnostics to \p Err.
Status runCompiler(const CompileOptions &Opts, std::ostream &Out,
                   std::ostream &Err);

/// The text of \p Path, or of standard input for "-"; a user Failure
/// saying why it cannot be read.
Expected<std::string> readSource(const std::string &Path);

} // namespace loopy

#endif
