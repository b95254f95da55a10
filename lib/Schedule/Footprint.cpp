//===- Footprint.cpp - Staged reads: footprints, boxes, buffers -----------===//
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/FullTiles.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Support/Isl.h"
#include "loopy/Support/Diagnostics.h"

#include <isl/aff.h>
#include <isl/fixed_box.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>

namespace loopy {

std::string bufferOfTile(const std::string &Tile, long Buffers) {
  // A power of two masks; the tile is never negative.
  if ((Buffers & (Buffers - 1)) == 0)
    return "(" + Tile + " & " + std::to_string(Buffers - 1) + ")";
  return "(" + Tile + " % " + std::to_string(Buffers) + ")";
}

std::string Stage::element(const std::vector<std::string> &Box) const {
  std::string T = Buf;
  if (!Parity.empty())
    T += "[" + Parity + "]";
  for (unsigned D : Order)
    T += "[" + Box[D] + "]";
  return Box.empty() ? T + "[0]" : T;
}

std::optional<FootprintBox> fixedBox(const isl::set &Footprint) {
  isl::fixed_box B = Footprint.simple_fixed_box_hull();
  if (!B.is_valid())
    return std::nullopt;
  FootprintBox FB{B.offset(), {}};
  isl::multi_val Size = B.size();
  for (unsigned I = 0, N = Size.size(); I < N; ++I)
    FB.Size.push_back(toLong(Size.at(I)));
  return FB;
}

/// The shared buffer's layout. A dimension of the footprint that follows a
/// register tile (the subscript is an output index whose thread holds
/// Ilp adjacent outputs) goes innermost, so that a thread's reads of
/// its tile are adjacent and nvcc can load them as one vector; the row is
/// aligned to the vector. Otherwise
/// the array's order is kept and rows get an odd length, so that threads
/// reading down a column hit distinct banks.
static void layOut(const StatementMapping &M, Stage &St, const Access &Acc,
                   long ElemBytes) {
  const Statement &S = *M.S;
  const Schedule &Sch = *M.Sch;
  unsigned N = St.Box.Size.size();
  isl::multi_aff MA = M.accessFormOnTuple(Acc.Relation, Piece::Update);
  int Best = -1;
  long BestVector = 1;
  for (unsigned D = 0; D < N; ++D) {
    isl::aff X = MA.at(D);
    // The subscript must be one output index (coefficient 1) plus a
    // constant: other indices would break the vector's alignment.
    const IndexMap *Follows = nullptr;
    bool Clean = true;
    for (unsigned I = 0; I < S.Indices.size(); ++I) {
      isl::val C = take(X.ctx(), isl_aff_get_coefficient_val(X.get(),
                                                             isl_dim_in, I));
      bool Zero = C.is_zero();
      bool One = C.is_one();
      if (Zero)
        continue;
      const IndexMap *M = Sch.find(S.Indices[I]);
      if (One && !Follows && M && M->K == IndexMap::Kind::Grid)
        Follows = M;
      else
        Clean = false;
    }
    if (!Clean || !Follows || Follows->run() < 2)
      continue;
    // A vector starts each of the thread's runs of outputs: its width
    // divides the run (a power of two, as vector types are).
    long V = 1;
    while (V * 2 <= 16 / ElemBytes && Follows->run() % (V * 2) == 0)
      V *= 2;
    if (V < 2)
      continue;
    // The contiguous dimension wins a tie: its loads need no transposing.
    if (V > BestVector || (V == BestVector && D == St.ContiguousDim)) {
      Best = D;
      BestVector = V;
    }
  }
  // On the tensor cores (Schedule/Mma.h) the fragments' 8 x 8 matrices
  // are read with ldmatrix, along the rows of the array's own order (or
  // its columns, transposed), f64 fragments element by element: no
  // dimension moves, so that the global loads and asynchronous copies
  // stay whole 16-byte vectors.
  const IndexMap *Red = Sch.Mma ? Sch.tiledReduction() : nullptr;
  if (Red) {
    Best = St.ContiguousDim;
    BestVector = 16 / ElemBytes;
  }
  St.Order.clear();
  for (unsigned D = 0; D < N; ++D)
    if (static_cast<int>(D) != Best)
      St.Order.push_back(D);
  if (Best >= 0)
    St.Order.push_back(Best);
  for (unsigned D : St.Order)
    St.Padded.push_back(St.Held[D]);
  if (N == 0)
    return;
  long &Row = St.Padded.back();
  if (Red && Best >= 0) {
    // Under mma, rows of an odd number of units: a register's 8 rows (of
    // the operand's output index) by 4 consecutive values of k then lie in
    // distinct banks, each row starts on 16 bytes, and each 16 bytes may
    // be one load or copy. 16-bit operands are read by ldmatrix, 8 rows of
    // 16 bytes: units of 8 elements. f64 and tf32 ones element by element:
    // along k, a warp reads 8 rows of 4 (a half-warp 4 rows of f64), units
    // of 4 elements; down k, 4 rows of 8 f32 (of 4 f64 a half-warp), units
    // of 8 f32.
    auto Pos = std::find(S.Indices.begin(), S.Indices.end(), Red->Index);
    isl::aff Inner = MA.at(Best);
    bool AlongK = !take(Inner.ctx(), isl_aff_get_coefficient_val(
                                         Inner.get(), isl_dim_in,
                                         Pos - S.Indices.begin()))
                       .is_zero();
    long Unit = ElemBytes == 2 || (ElemBytes == 4 && !AlongK) ? 8 : 4;
    St.Vector = 16 / ElemBytes;
    Row = (Row + Unit - 1) / Unit * Unit;
    if ((Row / Unit) % 2 == 0)
      Row += Unit;
  } else if (Best >= 0 && BestVector > 1) {
    // Rows of an odd number of vectors: threads reading (or the load
    // writing) down a column reach distinct banks.
    St.Vector = BestVector;
    Row = (Row + BestVector - 1) / BestVector * BestVector;
    if (N > 1 && (Row / BestVector) % 2 == 0)
      Row += BestVector;
  } else if (Row % 2 == 0 && Row > 1) {
    Row += 1; // odd row length: no bank conflicts
  }
}

/// Where every block is cut short by a tile longer than an extent, the
/// buffers hold the boxes of whole tiles' reads (Stage::Held), so that
/// overcomputeDomain (FullTiles.h) can drop the update's guard per point:
/// all of them or none, and only where every read under the reductions
/// that follows an output index is staged (another would leave its array).
static void holdWholeTiles(const StatementMapping &M,
                           LoweringCache::Block &Facts,
                           std::vector<Stage> &Stages) {
  const Statement &S = *M.S;
  if (Stages.empty() || !mayOvercompute(M) || !tileLongerThanExtent(M))
    return;
  std::vector<bool> Under = readsAtEveryPoint(S);
  for (unsigned R = 0; R < S.Reads.size(); ++R) {
    bool Staged = std::any_of(Stages.begin(), Stages.end(),
                              [R](const Stage &St) { return St.Read == R; });
    if (!Under[R] || Staged)
      continue;
    for (unsigned I = 0; I < S.Indices.size(); ++I)
      if (M.isOutput(S.Indices[I]) && accessUses(S.Reads[R].Relation, -1, I))
        return;
  }
  std::vector<std::vector<long>> Held;
  isl::set Whole; // one set of iterations for every read's box
  for (const Stage &St : Stages) {
    LoweringCache::Staged &Known = Facts.Reads[St.Read];
    if (!Known.WholeTiles) {
      if (Whole.is_null())
        Whole = wholeTileIterations(M);
      Known.WholeTiles =
          wholeTilesBox(M, St.Read, St.Box, St.Footprint, Whole);
    }
    if (!*Known.WholeTiles)
      return;
    Held.push_back(**Known.WholeTiles);
  }
  for (size_t I = 0; I < Stages.size(); ++I)
    Stages[I].Held = Held[I];
}

Expected<std::vector<Stage>> stageReads(StatementMapping &M,
                                        LoweringCache::Block &Facts) {
  const Kernel &K = *M.K;
  const Statement &S = *M.S;
  const Schedule &Sch = *M.Sch;
  std::vector<Stage> Stages;
  if (Sch.Prefetch.empty())
    return Stages;
  isl::set BlockIters;
  for (unsigned R : Sch.Prefetch) {
    const Access &Acc = S.Reads[R];
    const Argument &A = K.Args[Acc.Arg];
    LoweringCache::Staged &Known = Facts.Reads[R];
    if (Known.Footprint.is_null()) {
      if (BlockIters.is_null())
        BlockIters = M.blockIterations();
      // Without the parameters it does not involve, it serves every split
      // of the block.
      isl::set F = BlockIters.apply(M.align(Acc.Relation)).coalesce();
      Known.Footprint = take(F.ctx(), isl_set_drop_unused_params(F.release()));
      Known.Box = fixedBox(Known.Footprint);
    }
    isl::set F = M.align(Known.Footprint);
    const std::optional<FootprintBox> &Box = Known.Box;
    if (!Box) {
      return Failure::user("the footprint of " + quote(Acc.Spelling) +
                           " has no fixed size per block; it cannot be "
                           "prefetched");
    }
    Stage St;
    St.Read = R;
    St.Buf = M.Names.fresh(A.Name + "_sh");
    St.Box = *Box;
    St.Held = Box->Size;
    St.Footprint = F;
    // Loads are coalesced along the array's contiguous dimension.
    St.ContiguousDim = A.Order == Layout::ColMajor ? 0 : A.rank() - 1;
    St.ZeroFill = Sch.Mma;
    if (Sch.Pipelined)
      St.Next = M.Names.fresh(A.Name + "_next");
    if (M.doubleBuffered()) {
      St.Buffers = Sch.Async ? Sch.Buffers : 2;
      St.Parity = bufferOfTile(M.TileParam, St.Buffers);
    }
    Stages.push_back(std::move(St));
  }
  holdWholeTiles(M, Facts, Stages);
  for (Stage &St : Stages) {
    const Access &Acc = S.Reads[St.Read];
    layOut(M, St, Acc, dtypeSize(K.Args[Acc.Arg].Type));
  }
  return Stages;
}
} // namespace loopy
