//===- LoadVectors.h - Width and rounds of cooperative loads ----*- C++ -*-===//
//
// The load-width step of lowering: chooseLoadVectors takes the stages of a
// mapped statement and sets how each stage's cooperative load runs -- the
// elements it reads as one vector (16 bytes where isl proves that safe for
// every block and tile, else 1) and the rounds of the block's threads.
// Only code generation needs them; the planner's figures do not.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_LOADVECTORS_H
#define LOOPY_LIB_CODEGEN_LOADVECTORS_H

#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"

#include <vector>

namespace loopy {

/// Sets LoadVector and Rounds of every stage in \p Stages of \p M. \p Facts,
/// of M's block shape, keeps each read's vector width.
void chooseLoadVectors(std::vector<Stage> &Stages, const StatementMapping &M,
                       LoweringCache::Block &Facts);

} // namespace loopy

#endif
