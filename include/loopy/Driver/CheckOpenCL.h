//===- CheckOpenCL.h - Running every variant on the CPU ---------*- C++ -*-===//
//
// --check=opencl: each selected variant is lowered, printed as OpenCL C,
// built and run on PoCL on random inputs with poisoned outputs, and its
// outputs compared with the reference interpreter's. One line per variant
// and a summary line "N passed, M failed".
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_CHECKOPENCL_H
#define LOOPY_DRIVER_CHECKOPENCL_H

#include "loopy/Compile/Compile.h"
#include "loopy/Driver/Driver.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Support/Diagnostics.h"

#include <iosfwd>
#include <vector>

namespace loopy {

/// Succeeds if every variant passed; a user Failure, already reported,
/// otherwise.
Status checkOpenCL(const CheckedSource &C, const CompileOptions &Opts,
                   std::ostream &OS, DiagnosticEngine &Diags);

/// Positions of the variants a check runs: the one --variant names, all of
/// them with --all-variants, else \p Opts.Sample of them (all where there
/// are no more): the best ranked of each distinct reduction strategy and
/// prefetch combination (in rank order, the first variant among them) as
/// long as there is room, then variants spread evenly over the ranking.
/// With \p Opts.EveryStrategy the sample grows where needed to hold the
/// best ranked of every strategy. Sorted ascending.
std::vector<size_t> selectVariants(const Kernel &K, const std::vector<Variant> &Vs,
                                   const CompileOptions &Opts);

} // namespace loopy

#endif
