//===- Analysis.h - isl checks that complete a lifted kernel ----*- C++ -*-===//
//
// Two steps after lifting, both computed by isl on the loop domain:
//
//   inferAssumptions: a .loop statement runs over the projection of the
//   domain onto its indices, so it runs only where every loop of the nest
//   runs at least once; C runs a statement outside an inner loop even where
//   that loop is empty. The step finds the parameter values where the two
//   agree and records them as the kernel's assumption, or reports the
//   statement if they never do.
//
//   inferShapes: gives every array its .loop shape, from
//   `#pragma loopy shape`, its C type, the strides in its flattened
//   subscripts (`a[i * l + k]` is a[i, k] of an array with rows of l), and
//   the largest subscript over the domain; and checks that subscripts are
//   never negative and that split subscripts stay inside their rows.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_ANALYSIS_H
#define LOOPY_EXTRACT_ANALYSIS_H

#include "Diag.h"
#include "LiftedKernel.h"

#include <isl/cpp.h>

namespace loopy::extract {

/// Adds to K.Assumption (Assumptions.cpp); throws LiftFailed after
/// reporting an error.
void inferAssumptions(LiftedKernel &K, isl::ctx Ctx, Reporter &R);

/// Sets the Shape, Strides and ZeroDim of every array of \p K (Shapes.cpp);
/// throws LiftFailed after reporting an error.
void inferShapes(LiftedKernel &K, isl::ctx Ctx, Reporter &R);

/// Runs loopyc's own checks (its parser, Sema and the isl checks of races,
/// bounds and data flow) on \p Text, the printed .loop text of one kernel,
/// and reports what they find at the C source each line was lifted from
/// (\p LineOrigins, from printKernel), with the lifted line in a note
/// (LoopyChecks.cpp). Throws LiftFailed if they found an error, so that
/// the extractor never prints a kernel that loopyc rejects. Warnings about
/// the domain line are left out if \p DomainWarned (warnEmptyDomain said
/// more already).
void checkWithLoopyc(const std::string &Text,
                     const std::vector<clang::SourceRange> &LineOrigins,
                     Reporter &R, bool DomainWarned);

/// Warns at the outermost loop of \p K whose lifted domain is empty for
/// every value of the parameters (Assumptions.cpp); true if it did.
bool warnEmptyDomain(const LiftedKernel &K, isl::ctx Ctx, Reporter &R);

} // namespace loopy::extract

#endif
