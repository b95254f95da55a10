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
#include <array>

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

/// Shared-memory wavefronts of one read of a warp: each lane reads
/// \p Bytes from element \p Address(lane) (of \p ElemBytes). The banks
/// serve 128 bytes a pass, so a warp's 8- and 16-byte reads are served in
/// passes of 16 and 8 lanes; within a pass, a bank holding N distinct
/// words that lanes read takes N wavefronts (lanes reading the same word
/// share it).
static long wavefronts(const std::vector<long> &Address, long ElemBytes,
                       long Bytes) {
  long Words = std::max(1L, Bytes / 4);
  size_t Lanes = static_cast<size_t>(32 / Words);
  long Total = 0;
  for (size_t First = 0; First < Address.size(); First += Lanes) {
    std::vector<std::vector<long>> Banks(32);
    for (size_t L = First; L < std::min(Address.size(), First + Lanes); ++L)
      for (long W = 0; W < Words; ++W) {
        long Word = Address[L] * ElemBytes / 4 + W;
        std::vector<long> &B = Banks[((Word % 32) + 32) % 32];
        if (std::find(B.begin(), B.end(), Word) == B.end())
          B.push_back(Word);
      }
    size_t Most = 0;
    for (const std::vector<long> &B : Banks)
      Most = std::max(Most, B.size());
    Total += static_cast<long>(Most);
  }
  return Total;
}

/// Pads the buffer's inner dimensions where the update's read of it by a
/// warp would meet in banks: the row rule of layOut makes a column's
/// elements fall in distinct banks, but a warp's lanes may step over
/// several rows at once (three rows of 72 per lane put lanes 216 elements
/// apart, four lanes to a bank). The lanes' steps follow from the access
/// (isl's coefficients of the indices on thread axes) and the mapping (an
/// output's threads Run outputs apart, a reduction's threads one value
/// apart); each inner dimension may grow by up to three units (vectors
/// for the innermost, elements otherwise), and the smallest layout with
/// the fewest wavefronts wins, the unpadded one on a tie.
static void padAgainstConflicts(const StatementMapping &M, Stage &St,
                                const isl::multi_aff &MA, long ElemBytes) {
  const Statement &S = *M.S;
  const Schedule &Sch = *M.Sch;
  unsigned N = St.Padded.size();
  if (N < 2)
    return;
  long Threads[3] = {Sch.threads(Axis::X), Sch.threads(Axis::Y),
                     Sch.threads(Axis::Z)};
  long Lanes = std::min(32L, Threads[0] * Threads[1] * Threads[2]);
  if (Lanes < 2)
    return;
  // Steps[P][A]: elements of buffer dimension P between threads that are
  // one apart on thread axis A.
  std::vector<std::array<long, 3>> Steps(N, {0, 0, 0});
  bool Varies = false;
  for (unsigned I = 0; I < S.Indices.size(); ++I) {
    const IndexMap *Map = Sch.find(S.Indices[I]);
    if (!Map || Map->Threads < 2 || Map->Warps > 1 ||
        (Map->K != IndexMap::Kind::Grid && Map->K != IndexMap::Kind::Block))
      continue;
    long Step = Map->K == IndexMap::Kind::Grid ? Map->run() : 1;
    for (unsigned P = 0; P < N; ++P) {
      isl::val C = take(MA.ctx(), isl_aff_get_coefficient_val(
                                      MA.at(St.Order[P]).get(), isl_dim_in, I));
      if (!C.is_int())
        return;
      long Coef = toLong(C);
      Steps[P][static_cast<int>(Map->Ax)] += Coef * Step;
      Varies |= Coef != 0;
    }
  }
  if (!Varies)
    return;
  long Bytes = ElemBytes * St.Vector;
  auto Cost = [&](const std::vector<long> &Dims) {
    std::vector<long> Stride(N, 1);
    for (unsigned P = N - 1; P > 0; --P)
      Stride[P - 1] = Stride[P] * Dims[P];
    std::vector<long> Address;
    for (long L = 0; L < Lanes; ++L) {
      long T[3] = {L % Threads[0], L / Threads[0] % Threads[1],
                   L / (Threads[0] * Threads[1])};
      long A = 0;
      for (unsigned P = 0; P < N; ++P)
        for (int X = 0; X < 3; ++X)
          A += Steps[P][X] * T[X] * Stride[P];
      Address.push_back(A);
    }
    return wavefronts(Address, ElemBytes, Bytes);
  };
  auto Size = [](const std::vector<long> &Dims) {
    long P = 1;
    for (long D : Dims)
      P *= D;
    return P;
  };
  // The inner dimensions that may grow (the last four), each by 0 to 3
  // units: every combination, the smallest first on equal wavefronts.
  unsigned First = N > 5 ? N - 4 : 1;
  std::vector<long> Best = St.Padded;
  long BestCost = Cost(Best);
  // Each pass takes a wavefront at least: a read that takes no more is
  // conflict-free, and no padding can do better.
  long Words = std::max(1L, Bytes / 4);
  if (BestCost <= (Lanes * Words + 31) / 32)
    return;
  std::vector<long> Grow(N, 0);
  for (;;) {
    unsigned P = First;
    while (P < N && ++Grow[P] > 3)
      Grow[P++] = 0;
    if (P == N)
      break;
    std::vector<long> Dims = St.Padded;
    for (unsigned Q = First; Q < N; ++Q)
      Dims[Q] += Grow[Q] * (Q == N - 1 ? St.Vector : 1);
    long C = Cost(Dims);
    if (C < BestCost || (C == BestCost && Size(Dims) < Size(Best))) {
      Best = Dims;
      BestCost = C;
    }
  }
  St.Padded = Best;
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
  if (!Red)
    padAgainstConflicts(M, St, MA, ElemBytes);
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
