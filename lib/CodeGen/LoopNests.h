//===- LoopNests.h - isl's loop nests, generated once -----------*- C++ -*-===//
//
// The AST-generation step of lowering: loopNest hands a schedule, the
// build's context and the iterator names to isl's AST generator and
// produces the loop nest, with the build at each instance (for printing
// the statements later). Nests are kept in the LoweringCache by the text
// of what isl was given, so that variants that repeat a nest share it.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_LOOPNESTS_H
#define LOOPY_LIB_CODEGEN_LOOPNESTS_H

#include "loopy/Schedule/LoweringCache.h"

#include <isl/cpp.h>

#include <string>
#include <vector>

namespace loopy {

/// isl's nest for \p Schedule { [...] -> [time] } in \p Context, its loops
/// named \p Iterators, dimension D unrolled where \p Unroll[D]; from
/// \p Cache or generated into it. User nodes are annotated with their
/// position in the nest's Builds.
const LoweringCache::Nest &loopNest(LoweringCache &Cache,
                                    isl::union_map Schedule, isl::set Context,
                                    const std::vector<std::string> &Iterators,
                                    const std::vector<bool> &Unroll);

} // namespace loopy

#endif
