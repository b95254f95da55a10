//===- FullTiles.cpp - Blocks and reduction tiles that need no guards -----===//
#include "loopy/Schedule/FullTiles.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/map.h>
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
  isl::set Tiles = M.inBlockTiles(isl::set::universe(Domain.space()));
  return split(M.Context, Tiles.subtract(Domain).params());
}

std::optional<TileSplit> fullReductionTiles(const StatementMapping &M) {
  if (M.NumSizes != 0 || !M.Tiled)
    return std::nullopt;
  // A tile is full for a block where every output of the block's tile (on
  // the grid-mapped indices) that the domain has, with every value of the
  // tiled index in the tile, lies in the domain's projection on them: in a
  // triangle such as { i <= k < m }, the tiles past the block's diagonal
  // are full, the few that cross it are not. Outputs past the domain's
  // edge (in the last blocks) do not count: their guards are the blocks'.
  const IndexMap &T = *M.Tiled;
  std::vector<unsigned> Grid;
  for (const IndexMap *G : M.GridMaps)
    Grid.push_back(M.tuplePos(G->Index));
  std::vector<unsigned> Keep = Grid;
  Keep.push_back(M.tuplePos(T.Index));
  isl::set Domain = M.align(M.S->Domain);
  isl::set Range = keepOnly(Domain, Keep);
  isl::set Tiles = M.inBlockTiles(
      M.inTile(keepOnly(Domain, Grid), T.Index, M.TileParam, T.Tile));
  return split(M.Context, Tiles.subtract(Range).params());
}

/// Do \p X and \p Y give the same offsets?
static bool sameOffset(const FootprintBox &X, const FootprintBox &Y) {
  isl_multi_aff *A = X.Offset.copy(), *B = Y.Offset.copy();
  isl_space *Both = isl_space_align_params(isl_multi_aff_get_space(A),
                                           isl_multi_aff_get_space(B));
  A = isl_multi_aff_align_params(A, isl_space_copy(Both));
  B = isl_multi_aff_align_params(B, Both);
  isl_bool Equal = isl_multi_aff_plain_is_equal(A, B);
  isl_multi_aff_free(A);
  isl_multi_aff_free(B);
  return Equal == isl_bool_true;
}

/// Does the buffer of \p St hold \p Footprint: its box starts at the
/// stage's offset and has at most the extents the buffer holds?
static bool heldBy(const isl::set &Footprint, const Stage &St) {
  std::optional<FootprintBox> B = fixedBox(Footprint);
  if (!B || B->Size.size() != St.Held.size() || !sameOffset(*B, St.Box))
    return false;
  for (size_t D = 0; D < St.Held.size(); ++D)
    if (B->Size[D] > St.Held[D])
      return false;
  return true;
}

/// Read \p R's subscripts as one map on the whole index space (aligned;
/// the access relation holds only the domain's points); nothing where
/// they are not one affine function.
static std::optional<isl::map> readFunction(const StatementMapping &M,
                                            unsigned R) {
  std::optional<isl::multi_aff> F =
      accessFunction(M.align(M.S->Reads[R].Relation));
  if (!F)
    return std::nullopt;
  return take(F->ctx().get(), isl_map_from_multi_aff(F->copy()));
}

/// The domain with the output indices free: only the reduction indices'
/// constraints kept.
static isl::set wholeTiles(const StatementMapping &M) {
  std::vector<unsigned> Red;
  for (unsigned Index : M.S->Indices)
    if (!M.isOutput(Index))
      Red.push_back(M.tuplePos(Index));
  return keepOnly(M.align(M.S->Domain), Red).coalesce();
}

bool mayOvercompute(const StatementMapping &M) {
  return !M.GridMaps.empty() && !M.Accs.empty() && !M.BlockRed &&
         M.S->MoreOutputs.empty();
}

bool tileLongerThanExtent(const StatementMapping &M) {
  return std::any_of(
      M.GridMaps.begin(), M.GridMaps.end(), [&](const IndexMap *G) {
        std::optional<long> E =
            fixedExtent(M.S->Domain, M.S->tuplePos(G->Index));
        return E && G->blockTile() > *E;
      });
}

isl::set wholeTileIterations(const StatementMapping &M) {
  isl::set Free = wholeTiles(M);
  return M.blockIterations(&Free);
}

std::optional<std::vector<long>> wholeTilesBox(const StatementMapping &M,
                                               unsigned R,
                                               const FootprintBox &Box,
                                               const isl::set &Footprint,
                                               const isl::set &Whole) {
  // The blocks with iterations are those whose footprint is not empty.
  std::optional<isl::map> Fn = readFunction(M, R);
  std::optional<FootprintBox> B =
      Fn ? fixedBox(Whole.intersect_params(Footprint.params())
                        .apply(*Fn)
                        .coalesce())
         : std::nullopt;
  if (!B || B->Size.size() != Box.Size.size() || !sameOffset(*B, Box))
    return std::nullopt;
  long Own = 1, Held = 1;
  for (size_t D = 0; D < Box.Size.size(); ++D) {
    if (B->Size[D] < Box.Size[D])
      return std::nullopt;
    Own *= Box.Size[D];
    Held *= B->Size[D];
  }
  if (Held > 2 * Own)
    return std::nullopt;
  return B->Size;
}

std::optional<isl::set> overcomputeDomain(const StatementMapping &M,
                                          const std::vector<Stage> &Stages) {
  const Statement &S = *M.S;
  if (!mayOvercompute(M))
    return std::nullopt;
  std::vector<unsigned> Out, Red;
  for (unsigned Index : S.Indices)
    (M.isOutput(Index) ? Out : Red).push_back(M.tuplePos(Index));
  isl::set Domain = M.align(S.Domain);
  isl::set Outputs = keepOnly(Domain, Out);
  std::vector<bool> Under = readsAtEveryPoint(S);
  isl::set Block = M.blockIterations();
  auto Holds = [&](const isl::set &Relaxed) {
    if (Relaxed.is_equal(Domain))
      return false;
    // Each output the domain has keeps its own reduction: no term is added
    // to an output that is written.
    if (!Relaxed.intersect(Outputs).is_equal(Domain))
      return false;
    // The reads under the reductions touch, in each block, only elements
    // that the block's own iterations read (then staged ones lie in the
    // buffer, loaded for this tile, the others in the array), or, staged,
    // only elements of the box the buffer holds. (Blocks and tiles without
    // iterations of the domain run no update.)
    isl::set BlockRelaxed =
        M.blockIterations(&Relaxed).intersect_params(Block.params());
    for (unsigned R = 0; R < S.Reads.size(); ++R) {
      if (!Under[R])
        continue;
      std::optional<isl::map> Fn = readFunction(M, R);
      if (!Fn)
        return false;
      isl::set Touched = BlockRelaxed.apply(*Fn);
      if (Touched.is_subset(Block.apply(*Fn)))
        continue;
      auto St = std::find_if(Stages.begin(), Stages.end(),
                             [R](const Stage &X) { return X.Read == R; });
      if (St == Stages.end() || !heldBy(Touched.coalesce(), *St))
        return false;
    }
    return true;
  };
  // The output indices free: each block computes its whole tile.
  isl::set Free = wholeTiles(M);
  if (Holds(Free))
    return Free;
  // Each output index over its own range, the reduction indices over
  // theirs: the constraints that tie outputs to each other are gone.
  isl::set Untied = keepOnly(Domain, Red);
  for (unsigned O : Out)
    Untied = Untied.intersect(keepOnly(Domain, {O}));
  Untied = Untied.coalesce();
  if (Holds(Untied))
    return Untied;
  return std::nullopt;
}

} // namespace loopy
