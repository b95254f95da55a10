//===- FullTiles.cpp - Blocks and reduction tiles that need no guards -----===//
#include "loopy/Schedule/FullTiles.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"

#include <isl/set.h>

#include <algorithm>

namespace loopy {

/// \p D with every set dimension but those in \p Keep existentially
/// quantified: its projection on them, in the same space.
static isl::set keepOnly(isl::set D, const std::vector<unsigned> &Keep) {
  isl_ctx *Ctx = D.ctx().get();
  unsigned N = checkSize(Ctx, isl_set_dim(D.get(), isl_dim_set));
  for (unsigned I = 0; I < N; ++I)
    if (std::find(Keep.begin(), Keep.end(), I) == Keep.end())
      D = take(Ctx, isl_set_eliminate(D.release(), isl_dim_set, I, 1));
  return D;
}

/// The split of \p Context by \p Bad, the parameters of a tile with a point
/// outside the domain; nothing if either part is empty.
static std::optional<TileSplit> split(const isl::set &Context,
                                      const isl::set &Bad) {
  TileSplit S{Context.subtract(Bad).coalesce(),
              Context.intersect(Bad).coalesce()};
  if (S.Full.is_empty() || S.Partial.is_empty())
    return std::nullopt;
  return S;
}

std::optional<TileSplit> fullBlocks(const StatementMapping &M) {
  if (M.NumSizes != 0 || M.GridMaps.empty())
    return std::nullopt;
  std::vector<unsigned> Grid;
  for (const IndexMap *G : M.GridMaps)
    Grid.push_back(M.tuplePos(G->Index));
  isl::set Domain = keepOnly(M.align(M.S->Domain), Grid);
  // { [indices] } the tiles of the blocks, the block ids as parameters.
  isl::set Tiles = isl::set::universe(Domain.space());
  for (const IndexMap *G : M.GridMaps)
    Tiles = M.inTile(Tiles, G->Index, M.BlockId[static_cast<int>(G->Ax)],
                     G->blockTile());
  return split(M.Context, Tiles.subtract(Domain).params());
}

std::optional<TileSplit> fullReductionTiles(const StatementMapping &M) {
  if (M.NumSizes != 0 || !M.Tiled)
    return std::nullopt;
  const IndexMap &T = *M.Tiled;
  isl::set Range =
      keepOnly(M.align(M.S->Domain), {(unsigned)M.tuplePos(T.Index)});
  isl::set Tiles = M.inTile(isl::set::universe(Range.space()), T.Index,
                            M.TileParam, T.Tile);
  return split(M.Context, Tiles.subtract(Range).params());
}

} // namespace loopy
