//===- Checks.h - Whole-kernel legality checks proved with isl --*- C++ -*-===//
//
// Each check takes a Kernel built by Sema and reports, through the
// DiagnosticEngine, every way the kernel could go wrong for some parameter
// value allowed by its context, with a concrete witness (parameter and index
// values). They change nothing.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_ANALYSIS_CHECKS_H
#define LOOPY_ANALYSIS_CHECKS_H

#include "loopy/IR/Kernel.h"
#include "loopy/Support/Diagnostics.h"

namespace loopy {

/// Two different output points of one statement write the same element, or
/// two statements write overlapping elements (a race).
bool checkWritesRaceFree(const Kernel &K, DiagnosticEngine &Diags);

/// An access can leave its array's extents at some point of the domain.
bool checkAccessesInBounds(const Kernel &K, DiagnosticEngine &Diags);

/// A statement reads an array another statement writes, or reads its own
/// output at another element, or reads an 'out' array.
bool checkDataflow(const Kernel &K, DiagnosticEngine &Diags);

/// Runs every check above; true if the kernel passed them all.
bool checkKernel(const Kernel &K, DiagnosticEngine &Diags);

} // namespace loopy

#endif
