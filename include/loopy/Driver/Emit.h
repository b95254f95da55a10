//===- Emit.h - The device-code outputs of loopyc ---------------*- C++ -*-===//
//
// emitDeviceCode produces --emit=variants|cuda|opencl|ptx|json and the
// --check runs for checked kernels: it plans each kernel, picks the variant
// asked for (or the best ranked), lowers it and prints it, all through the
// compile entry (Compile/Compile.h). tuneKernels is --tune;
// emitCudaModule is --emit=cuda-module.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_EMIT_H
#define LOOPY_DRIVER_EMIT_H

#include "loopy/Compile/Compile.h"
#include "loopy/Driver/Driver.h"
#include "loopy/Support/Diagnostics.h"

#include <iosfwd>
#include <string>

namespace loopy {

/// Writes the output for the kernels of \p C to \p OS. --emit=json and
/// --emit=variants --format=json print one JSON array, whatever the number
/// of kernels and variants (empty where the file has no statement): one
/// object per variant, each naming its kernel.
Status emitDeviceCode(CheckedSource &C, const CompileOptions &Opts,
                      std::ostream &OS, DiagnosticEngine &Diags);

/// --tune: tunes every kernel of \p C on the GPU, or takes its result from
/// the tuning database, and prints each winner's CUDA source under a
/// comment with its time and rates. A progress bar goes to \p Err where it
/// is the terminal.
Status tuneKernels(CheckedSource &C, const CompileOptions &Opts,
                   std::ostream &Out, std::ostream &Err,
                   DiagnosticEngine &Diags);

/// The default output (no --emit, --tune or --check): where a GPU is
/// present and every index parameter of every kernel has a value (-D), as
/// --tune (tuned once, then read from the tuning database); else the CUDA
/// of the planner's first-ranked variant of each kernel. Either way one
/// note on \p Diags says which and why.
Status emitBest(CheckedSource &C, const CompileOptions &Opts,
                std::ostream &Out, std::ostream &Err,
                DiagnosticEngine &Diags);

/// --db-export FILE and --db-merge FILE: write every result of the tuning
/// database \p Db (empty: the default) to \p File ("-": \p Out) as JSON,
/// or merge the results of \p File into it, keeping for each key the
/// faster winner. A note on \p Err says what was done; errors go there too.
Status exportTuningDb(const std::string &Db, const std::string &File,
                      std::ostream &Out, std::ostream &Err);
Status mergeTuningDb(const std::string &Db, const std::string &File,
                     std::ostream &Err);

/// The two files of --emit=cuda-module.
struct CudaModule {
  /// NAME.h: a typed launcher per kernel, declared for host code
  /// (loopy::kernels::KERNEL(arguments by name, cudaStream_t) returning
  /// cudaError_t); it needs only <cuda_runtime_api.h>.
  std::string Header;
  /// NAME.cu, for nvcc: the kernels under one prelude and the launchers,
  /// which compute each grid, opt in to dynamic shared memory, run a split
  /// reduction's zero-initialisation first and check the alignment of
  /// arrays read as vectors.
  std::string Source;
};

/// --emit=cuda-module: the module of every kernel of \p C, each the
/// variant Opts.Variant names, else the winner stored in the tuning
/// database Opts.Db for its sizes and planner options (tuned on any
/// device; a warning where there is none), else the first-ranked one.
/// \p Stem is the output path without extension: the .cu includes the
/// header by its file name.
Expected<CudaModule> emitCudaModule(CheckedSource &C,
                                    const CompileOptions &Opts,
                                    const std::string &Stem,
                                    DiagnosticEngine &Diags);

} // namespace loopy

#endif
