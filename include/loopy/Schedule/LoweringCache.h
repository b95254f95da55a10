//===- LoweringCache.h - isl results kept across lowerings ------*- C++ -*-===//
//
// The variants of one kernel repeat many of isl's answers: the loop nests of
// pieces over the same domain, the footprints of a block shape, the facts of
// a statement. LoweringCache keeps them for later lowerings (and the
// planner's figures) of kernels in the same isl context. Every kept fact is
// computed from what its key names alone, so that what a lowering produces
// never depends on which lowering filled the cache first.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_LOWERINGCACHE_H
#define LOOPY_SCHEDULE_LOWERINGCACHE_H

#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Support/Expected.h"

#include <isl/cpp.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// Where the blocks of an index start: 0, or -- for an index that takes
/// negative values -- its lowest value, an affine function of the sizes
/// not fixed at compile time (coefficients by parameter name, and a
/// constant), or, where it has no such form (a floor division of the sizes
/// such as -floor(n / 2)), isl's lowest value itself.
struct IndexOrigin {
  std::vector<std::pair<std::string, long>> Coefficients;
  long Constant = 0;
  /// Set instead of the two above: the lowest value on the sizes.
  std::optional<isl::pw_aff> Exact;
  bool isZero() const {
    return Coefficients.empty() && Constant == 0 && !Exact;
  }
};


/// A fixed-size box that holds a set: Offset (a multi_aff of the
/// parameters) and Size per dimension.
struct FootprintBox {
  isl::multi_aff Offset;
  std::vector<long> Size;
};

/// What isl computed while lowering, kept for later lowerings of the same
/// kernel. isl objects belong to one context: a cache serves the lowerings
/// of one thread's kernels only, and goes before their context.
class LoweringCache {
public:
  /// A loop nest, kept by what isl was given: the schedule, the build's
  /// context and the iterator names (with the dimensions to unroll). The
  /// variants of one kernel repeat many of them: Init and Write run over
  /// the same domain, variants that differ only in what they stage repeat
  /// a register tile, and those that differ only in how threads split a
  /// block repeat the block-uniform loops. A nest keeps the build at each
  /// of its instances, from which each lowering prints its own statements.
  /// Tree's user nodes are annotated with their position in Builds.
  struct Nest {
    isl::ast_node Tree;
    std::vector<isl::ast_build> Builds;
  };
  const Nest *findNest(const std::string &Key) const {
    auto It = Nests.find(Key);
    return It == Nests.end() ? nullptr : &It->second;
  }
  const Nest &insertNest(const std::string &Key, Nest N) {
    return Nests.insert_or_assign(Key, std::move(N)).first->second;
  }

  /// A staged read's footprint per block and reduction tile, its box, and
  /// the width of its loads (0 until code generation asks for it).
  struct Staged {
    isl::set Footprint;
    std::optional<FootprintBox> Box; // none: no fixed size
    /// wholeTilesBox (FullTiles.h), where it was asked.
    std::optional<std::optional<std::vector<long>>> WholeTiles;
    long LoadVector = 0;
  };
  /// What follows from a block's shape alone -- the tile of each output on
  /// the grid, the reduction tile, the uniform loops -- and so serves every
  /// split of the block among threads and registers: the largest block id
  /// per grid axis, and the staged reads (by read number). They are
  /// computed from blockIterations (Mapping.h), never from one split.
  struct Block {
    bool Bounded = false;
    isl::pw_aff Max[3];
    /// Max of each further index on z (StatementMapping::ZParts).
    std::vector<isl::pw_aff> PartMax;
    std::map<unsigned, Staged> Reads;
    /// The planner's figures of the grid (Figures.h), which follow from
    /// Max: per axis its size as C and its blocks where the sizes fix them
    /// (-1 where not), the most where they bound them.
    bool Gridded = false;
    std::string GridC[3];
    long Blocks[3] = {1, 1, 1}, BlocksMax[3] = {1, 1, 1};
  };
  /// The facts kept for the block shape \p Key, empty the first time.
  Block &block(const std::string &Key) { return Blocks[Key]; }

  /// Facts of a statement whatever its schedule, each computed when first
  /// asked, by statement name: whether 32-bit index arithmetic suffices,
  /// and per index where its blocks start.
  struct StatementFacts {
    std::optional<bool> Index32;
    std::map<unsigned, Expected<IndexOrigin>> Origins;
  };
  StatementFacts &statement(const std::string &Name) { return Stmts[Name]; }

  /// The kernel with its indices merged (MergeIndices.h), made when a
  /// merged variant is first lowered, with the cache of its own lowerings
  /// (its indices are not the kernel's); no cache until then.
  struct Merged {
    std::optional<MergedKernel> View;
    std::unique_ptr<LoweringCache> Cache;
  };
  Merged &merged() { return MergedView; }

  /// The kernel with its statements fused (Fusion.h), likewise.
  struct Fused {
    std::optional<FusedKernel> View;
    std::unique_ptr<LoweringCache> Cache;
  };
  Fused &fused() { return FusedView; }

private:
  std::map<std::string, Nest> Nests;
  std::map<std::string, Block> Blocks;
  std::map<std::string, StatementFacts> Stmts;
  Merged MergedView;
  Fused FusedView;
};

} // namespace loopy

#endif
