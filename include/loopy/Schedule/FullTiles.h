//===- FullTiles.h - Blocks and reduction tiles that need no guards -*- C++ -*-===//
//
// Where the extents are not multiples of the tiles, the last blocks and the
// last reduction tile hold points outside the domain, and the code guards
// every instance. Most blocks and tiles are full. These sets say which, so
// that the lowering can generate the full ones apart, under a context in
// which isl drops the guards and loop bounds become constants.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_FULLTILES_H
#define LOOPY_SCHEDULE_FULLTILES_H

#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"

#include <isl/cpp.h>

#include <optional>

namespace loopy {

/// A split of a parameter range in two: the full part and the rest.
struct TileSplit {
  isl::set Full;    ///< { [params] } where every point of the tile is in
  isl::set Partial; ///< the rest of the context
};

/// The block ids (on M's parameters, within M.Context) whose tile of the
/// grid-mapped output indices lies wholly inside the domain's projection
/// on them. Nothing when every block is full, when none is, or when sizes
/// are left symbolic (the split would double every kernel's code).
std::optional<TileSplit> fullBlocks(const StatementMapping &M);

/// The reduction tiles and blocks (values of M.TileParam and the block ids,
/// within M.Context) where the block's tile of the grid-mapped outputs
/// with the reduction tile's range of the tiled index lies wholly inside
/// the domain's projection on them: the tiles before the end of the
/// reduction and, in a triangle, off its diagonal. Nothing under the same
/// conditions as fullBlocks, and without a tiled reduction.
std::optional<TileSplit> fullReductionTiles(const StatementMapping &M);

/// A superset of the statement's domain (on its tuple, aligned) over which
/// the update of the blocks that cross the domain's boundary may run
/// without a guard per point, computing outputs that are never written.
/// The widest that holds of: the output indices free, only the reduction
/// indices' constraints kept (a block on the edge of { i < 1001 } computes
/// its whole tile of 64 rows); the domain with the constraints that tie
/// its output indices to each other dropped (the triangle of
/// { j <= i < n, 0 <= k < m } becomes the square). Only where every output
/// of the domain keeps exactly its own reduction and, in every block, the
/// reads under the reductions touch no element that the block's own
/// iterations do not or, for a read staged in \p Stages, none outside its
/// buffer (the relaxed footprint has the stage's box); nothing otherwise,
/// and where it would be the domain itself.
std::optional<isl::set> overcomputeDomain(const StatementMapping &M,
                                          const std::vector<Stage> &Stages);

/// Whether overcomputeDomain may relax \p M's update at all: outputs on
/// the grid, accumulated in registers, no reduction across threads, one
/// output per statement.
bool mayOvercompute(const StatementMapping &M);

/// Whether some output's block tile is longer than its index's fixed
/// extent (48 for 40), so that every block is cut short and the boxes of
/// the staged reads hold less than whole tiles read. (Elsewhere a box
/// holds what every block reads, the whole tile's reads among them.)
bool tileLongerThanExtent(const StatementMapping &M);

/// The extents of the box from \p Box's offset that holds what read \p R
/// touches in a block whose update runs over its whole tile (the output
/// indices free, the reductions' constraints kept), where that box has at
/// most twice \p Box's elements; nothing otherwise. Buffers holding it
/// (Stage::Held) let every block of a tile longer than an extent run
/// without a guard per point. \p Footprint: the read's footprint, whose
/// box \p Box is; \p Whole: wholeTileIterations(M).
std::optional<std::vector<long>> wholeTilesBox(const StatementMapping &M,
                                               unsigned R,
                                               const FootprintBox &Box,
                                               const isl::set &Footprint,
                                               const isl::set &Whole);

/// A block's iterations over its whole tile: M.blockIterations() with the
/// output indices free, only the reductions' constraints kept.
isl::set wholeTileIterations(const StatementMapping &M);

} // namespace loopy

#endif
