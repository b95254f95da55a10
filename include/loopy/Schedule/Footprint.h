//===- Footprint.h - Staged reads: footprints, boxes, buffers ---*- C++ -*-===//
//
// The footprints-and-staging step of lowering. stageReads takes a mapped
// statement and produces one Stage per read its schedule prefetches: the
// read's footprint per block and reduction tile (the image of the block's
// iterations under the access relation), the fixed box around it that the
// shared buffer holds, and the buffer's layout.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_FOOTPRINT_H
#define LOOPY_SCHEDULE_FOOTPRINT_H

#include "loopy/Schedule/LoweringCache.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Support/Expected.h"

#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// One read staged in shared memory.
struct Stage {
  unsigned Read = 0;
  std::string Buf;
  FootprintBox Box;
  isl::set Footprint; // { A[x] } per block and tile
  /// The extents of the box the buffer holds, from Box's offset: Box's
  /// own, or larger where the update may run over whole tiles past the
  /// domain's edge (overcomputeDomain, FullTiles.h) and their reads reach
  /// further. The loads fill only Box; the rest is read into outputs that
  /// are never written.
  std::vector<long> Held;
  /// The buffer's dimensions hold the box's dimensions Order[0], ...
  /// (slowest first), with extents Padded (Held's, padded).
  std::vector<unsigned> Order;
  std::vector<long> Padded;
  unsigned ContiguousDim = 0;
  /// Elements a thread reads side by side from the innermost dimension
  /// (its register tile there), 1 if none; the rows are aligned to that.
  long Vector = 1;
  /// Pipelined: the registers holding a thread's part of the next tile.
  std::string Next;
  long Rounds = 1; // cooperative load rounds: vectors per thread
  /// Elements the cooperative load reads as one vector along the
  /// contiguous dimension (1: one at a time); see chooseLoadVectors.
  long LoadVector = 1;
  /// Double-buffered: the leading subscript, the buffer of the reduction
  /// tile (bufferOfTile), one of Buffers.
  std::string Parity;
  long Buffers = 1;
  /// Pipelined with async copies (Schedule::Async): each load vector goes
  /// straight into the next tile's buffer as one asynchronous copy, where
  /// its elements lie side by side there, aligned (see chooseLoadVectors);
  /// Next is then empty. Other stages of the schedule go through registers.
  bool Async = false;
  /// Elements of the box outside the footprint hold zeros (under mma, whose
  /// fragments read whole tiles: past the extents, the products are 0).
  bool ZeroFill = false;

  /// The buffer's element at box coordinates \p Box.
  std::string element(const std::vector<std::string> &Box) const;
};

/// Which of \p Buffers buffers the reduction tile \p Tile (a C expression,
/// never negative) uses: its parity for two, its remainder for more.
std::string bufferOfTile(const std::string &Tile, long Buffers);

/// The smallest fixed-size box around \p Footprint, or nullopt if its
/// extent depends on the parameters.
std::optional<FootprintBox> fixedBox(const isl::set &Footprint);

/// The stages of \p M's prefetched reads, in the schedule's order, their
/// buffers named from \p M's names. Fails (an ordinary result: the planner
/// drops such schedules) where a footprint has no fixed box. \p Facts, of
/// M's block shape, keeps the footprints and boxes.
Expected<std::vector<Stage>> stageReads(StatementMapping &M,
                                        LoweringCache::Block &Facts);

} // namespace loopy

#endif
