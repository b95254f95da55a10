//===- Search.h - Which variants the tuner runs --------------*- C++ -*-===//
//
// The static cost model ranks a kernel's variants; where it ranks wrongly,
// the best variants can lie far down its list (a tensor contraction whose
// top 64 variants all stage nothing, a batched product whose winner ranks
// 120th). The tuner therefore runs its budget in two rounds:
//
//   1. half the budget: the model's best-ranked quarter of the budget,
//      then the best-ranked variant of each family that none of those is
//      in, by rank (familiesFirst): the ways of mapping and staging the
//      kernel get a measurement before any is ruled out;
//   2. the rest of the budget from the families that measured fastest:
//      those within a factor of the best time, each family's variants in
//      rank order, taken from the families in turn, fastest first
//      (fastestFamiliesNext), and, once those run out, by rank.
//
// A variant's family is its schedule string without its sizes: the view
// (merged indices, fused statements), which index of each statement is on
// which grid axis, how each reduction runs (sequentially, in tiles, across
// the block's threads, across blocks), which reads are staged and whether
// the staging is pipelined, and how a thread's outputs on x lie (adjacent,
// strided, in strided runs) -- but not its tile sizes, thread counts or
// register tiles, nor the order of its sequential loops.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_SEARCH_H
#define LOOPY_TUNER_SEARCH_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// The family of the variant named \p Schedule (see above), as text:
/// "i@y j@x/s k:tiled prefetch:a,b pipelined" for
/// "i:g.y,t.y*16,ilp4 j:g.x,t.x*16,ilp4s k:seq*8 prefetch:a,b pipelined".
std::string variantFamily(const std::string &Schedule);

/// The first round of a search with \p Budget runs over the variants named
/// \p Ranked, best ranked first: positions in \p Ranked, half the budget
/// (rounded up): the first quarter (rounded up) by rank, then the
/// best-ranked variant of each family that none taken is in, in rank
/// order, and, where the families run out, the best-ranked others.
std::vector<size_t> familiesFirst(const std::vector<std::string> &Ranked,
                                  size_t Budget);

/// The next \p Count variants to run, after the variants at \p Done (positions
/// in \p Ranked) ran with the median times \p Seconds (none where a
/// variant failed or was wrong): the variants of the families whose best
/// time is within \p Slack of the best family's, round-robin over those
/// families from the fastest, each in rank order; then the best-ranked of
/// the others.
std::vector<size_t>
fastestFamiliesNext(const std::vector<std::string> &Ranked,
                    const std::vector<size_t> &Done,
                    const std::vector<std::optional<double>> &Seconds,
                    size_t Count, double Slack = 1.5);

} // namespace loopy

#endif
