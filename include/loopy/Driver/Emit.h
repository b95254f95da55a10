//===- Emit.h - The device-code outputs of loopyc ---------------*- C++ -*-===//
//
// emitDeviceCode produces --emit=variants|cuda|ptx|json for checked kernels:
// it plans each kernel, picks the variant asked for (or the best ranked),
// lowers it and prints it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_EMIT_H
#define LOOPY_DRIVER_EMIT_H

#include "loopy/Driver/Driver.h"
#include "loopy/Frontend/AST.h"
#include "loopy/Driver/ParallelLower.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/cpp.h>

#include <iosfwd>
#include <string>
#include <vector>

namespace loopy {

/// Appends the output to \p Out; returns the exit status (0, 1 or 2).
/// \p Src is the text \p Kernels were built from, for workers that lower
/// variants in parallel.
int emitDeviceCode(const std::vector<Kernel> &Kernels,
                   const KernelSource &Src, const CompileOptions &Opts,
                   std::string &Out, DiagnosticEngine &Diags);

/// \p S as a JSON string literal.
std::string jsonString(const std::string &S);

/// --tune: tunes every kernel of \p M (built as \p Kernels) on the GPU, or
/// takes its result from the tuning database, and prints each winner's
/// CUDA source under a comment with its time and rates. A progress bar
/// goes to \p Err where it is the terminal. Returns the exit status.
int tuneKernels(const ast::Module &M, const std::vector<Kernel> &Kernels,
                const KernelSource &Src, const SourceManager &SM,
                const CompileOptions &Opts, isl::ctx Ctx, std::ostream &Out,
                std::ostream &Err, DiagnosticEngine &Diags);

} // namespace loopy

#endif
