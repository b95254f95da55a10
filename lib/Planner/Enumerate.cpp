//===- Enumerate.cpp - The schedule space of a statement ------------------===//
//
// The space, per statement:
//  - the output index that is contiguous in the written array goes on x,
//    each other one in turn on y, the first of the rest on z, any further
//    ones run sequentially;
//  - per grid axis: a thread count and an inline-parallel (register) factor,
//    with a thread's outputs adjacent or strided by the thread count;
//  - per reduction index: sequential; tiled (one index); or, when a thread
//    axis is free, block-parallel over a power-of-two number of threads;
//  - for reductions with at most one output index, also that index on y
//    with the last
//    reduction index on x (a warp's threads then read along it, which is
//    coalesced where it is the contiguous one), block-parallel or split
//    across blocks of x (so that long reductions with few outputs, and
//    full reductions, fill the GPU);
//  - with a tiled reduction (or none), every subset of the reads staged in
//    shared memory, leaving out reads whose subscripts use no index (one
//    element for the whole kernel).
// Resource constraints prune it; the cost model ranks it.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Schedule/Mma.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Support/Isl.h"
#include "loopy/Support/Parallel.h"

#include <isl/ctx.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string_view>

namespace loopy {

namespace {

/// The output index the write's contiguous subscript follows, if any.
std::optional<unsigned> contiguousOutput(const Kernel &K, const Statement &S) {
  const Argument &A = K.Args[S.Write.Arg];
  if (A.rank() == 0)
    return std::nullopt;
  int Dim = A.Order == Layout::ColMajor ? 0 : A.rank() - 1;
  for (unsigned I = 0; I < S.Indices.size(); ++I)
    if (accessUses(S.Write.Relation, Dim, I))
      return S.Indices[I];
  return std::nullopt;
}

struct AxisChoice {
  long Threads;
  long Ilp;
  long Run; // IndexMap::Run
};

/// The choices of grid axis \p A for an output index of \p Extent values
/// where the sizes fix it. On x, eight outputs also come in runs of four
/// ("ilp8s4"): each run is one 16-byte vector of a staged f32 buffer and a
/// warp's vectors are consecutive, where eight adjacent outputs put the
/// lanes 32 bytes apart and every vector read of the buffer takes two
/// passes of the shared-memory banks (the cost model counts both). On an
/// H200 the tuner's default search with runs took matmul at 4096^3 from
/// 3.17 to 2.98 ms and gemm at 4000 x 4600 x 5200 from 4.67 to 4.30 ms.
std::vector<AxisChoice> axisChoices(Axis A, std::optional<long> Extent) {
  // x carries the contiguous index: wide in threads, and a thread's
  // outputs may be strided so that a warp's accesses stay coalesced. y and
  // z carry rows of the tile; z one or two (a batch index past z's limit
  // of 65,535 blocks still fits there with two per block).
  std::vector<long> Threads = A == Axis::X ? std::vector<long>{16, 32, 64}
                            : A == Axis::Y ? std::vector<long>{1, 2, 4, 8, 16}
                                           : std::vector<long>{1};
  std::vector<long> Ilps = A == Axis::Z ? std::vector<long>{1, 2}
                                        : std::vector<long>{1, 2, 4, 8};
  std::vector<AxisChoice> C;
  for (long T : Threads)
    for (long U : Ilps) {
      C.push_back({T, U, 0});
      if (A == Axis::X && U > 1 && T > 1)
        C.push_back({T, U, 1});
      if (A == Axis::X && U == 8)
        C.push_back({T, U, 4});
    }
  // A short fixed extent (35 = 4 x 9 - 1) also gets tiles that cover it
  // with little to spare: fewer threads, each with the outputs that make
  // up the extent, where the powers of two would leave up to half the
  // tile idle. Fewer threads on x keep a warp's reads contiguous where the
  // extent is a whole row.
  if (Extent && A != Axis::Z && *Extent > 2 && *Extent < 64) {
    std::vector<long> Few = A == Axis::X ? std::vector<long>{4, 8, 16}
                                         : std::vector<long>{1, 2, 4, 8};
    for (long T : Few) {
      long U = (*Extent + T - 1) / T;
      if (U > 16 || (U & (U - 1)) == 0)
        continue; // a power of two is among the choices above, or too many
      C.push_back({T, U, 0});
      if (A == Axis::X && T > 1)
        C.push_back({T, U, 1});
    }
  }
  // A register tile whose block covers a fixed extent twice over leaves at
  // least half of every thread's outputs past the extent in every block:
  // guarded work that no block keeps, and code that compiles slowly (an
  // extent of 40 under 32 threads of 8 outputs took NVRTC 50 s). Threads
  // alone may still overhang, so that the axis keeps its choices.
  if (Extent)
    std::erase_if(C, [&](const AxisChoice &Ch) {
      return Ch.Ilp > 1 && Ch.Threads * Ch.Ilp >= 2 * *Extent;
    });
  return C;
}

/// One family of the space: the grid axes the output indices take, in
/// order, and what the reductions may do.
struct Family {
  std::vector<Axis> Axes;
  bool ReductionOnX; // the last reduction index takes x (block or split)
  /// With no grid axis: a schedule of one thread (every index sequential)
  /// is allowed, as for a statement without indices.
  bool OneThread = false;
  /// The output indices past the axes share z's blocks (one thread and
  /// one output each) rather than run sequentially in each thread.
  bool ShareZ = false;
};

void enumerateFamily(const Kernel &K, const Statement &S,
                     const PlannerOptions &Opts, const Family &Fam,
                     std::vector<Schedule> &Out);
/// The schedules of \p Fam with the outputs \p Outs taking its axes in
/// order, the rest sequential.
void enumerateGrid(const Kernel &K, const Statement &S,
                   const PlannerOptions &Opts, const Family &Fam,
                   const std::vector<unsigned> &Outs,
                   std::vector<Schedule> &Out);

/// A schedule of the space and the family it comes from (0: outputs on x,
/// y, z; 1: the reduction on x).
struct Candidate {
  Schedule Sch;
  unsigned Family;
};

/// The schedules on the tensor cores (Schedule/Mma.h), where the
/// statement is a product they compute: blocks of 1 x 1 to 4 x 2 and 2 x 4
/// warps, the contiguous output on x, each warp M x N fragments of 16 x 8
/// with M from 1 to 4 and N from 2 to 8 (up to twice the register limit's
/// accumulator registers: a warp's tile of 64 x 64 reads each fragment for
/// eight products), reduction tiles of 16, 32 and 64, both operands
/// staged, also pipelined and copied asynchronously; on f64 operands,
/// whose accumulators take two registers, and on f32 ones (as tf32,
/// where the options allow), reduction tiles of 16 and 32. Tiles past the
/// extents read zero-filled stages; tiles larger than an extent fail the
/// analysis (mmaTileRule). Each pair of outputs that the operands follow
/// is a shape of its own (mmaShapes), the other outputs a batch: the
/// first on z, one per block, the others in a loop of the block.
void enumerateMmaShape(const Kernel &K, const Statement &S,
                       const PlannerOptions &Opts, const MmaShape &Sh,
                       std::optional<unsigned> Contig,
                       std::vector<Schedule> &Out);
void enumerateMma(const Kernel &K, const Statement &S,
                  const PlannerOptions &Opts, std::vector<Schedule> &Out) {
  std::string Why;
  std::optional<unsigned> Contig = contiguousOutput(K, S);
  for (const MmaShape &Sh : mmaShapes(K, S, Why))
    enumerateMmaShape(K, S, Opts, Sh, Contig, Out);
}

void enumerateMmaShape(const Kernel &K, const Statement &S,
                       const PlannerOptions &Opts, const MmaShape &Shape,
                       std::optional<unsigned> Contig,
                       std::vector<Schedule> &Out) {
  const MmaShape *Sh = &Shape;
  if (Sh->Type == DType::F32 && !Opts.AllowTf32)
    return;
  // The contiguous output of the pair on x, else the later one.
  unsigned Col = std::max(Sh->Follows[0], Sh->Follows[1]);
  if (Contig && (*Contig == Sh->Follows[0] || *Contig == Sh->Follows[1]))
    Col = *Contig;
  unsigned Row = Sh->Follows[0] == Col ? Sh->Follows[1] : Sh->Follows[0];
  long Wide = Sh->Type == DType::F64 ? 2 : 1; // registers per accumulator
  const long Warps[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 2}, {2, 4}};
  for (const long *W : Warps)
    for (long FragRows : {1, 2, 4})
      for (long FragCols : {2, 4, 8}) {
        if (4 * FragRows * FragCols * Wide > 2 * Opts.MaxRegisterOutputs)
          continue;
        for (long Tile : {16, 32, 64}) {
          if (Tile > (isHalf(Sh->Type) ? 64 : 32))
            continue;
          Schedule Sch;
          Sch.Mma = true;
          Sch.Tf32 = Sh->Type == DType::F32;
          Sch.MmaWarps[0] = W[0];
          Sch.MmaWarps[1] = W[1];
          for (unsigned I : S.Indices) {
            IndexMap M;
            M.Index = I;
            if (I == Sh->Red) {
              M.K = IndexMap::Kind::Tiled;
              M.Tile = Tile;
            } else if (I != Row && I != Col) {
              // A batch index: the first on z, one per block; the others
              // in a loop of the block.
              if (I == Sh->Batch.front()) {
                M.K = IndexMap::Kind::Grid;
                M.Ax = Axis::Z;
              }
            } else {
              bool IsRow = I == Row;
              M.K = IndexMap::Kind::Grid;
              M.Ax = IsRow ? Axis::Y : Axis::X;
              M.Threads = IsRow ? 8 : 4;
              M.Ilp = 2 * (IsRow ? FragRows : FragCols);
              M.Run = IsRow ? 1 : 2;
              M.Warps = W[IsRow ? 0 : 1];
            }
            Sch.Maps.push_back(M);
          }
          // Outputs first (y, then x), as the other families print them.
          std::stable_sort(Sch.Maps.begin(), Sch.Maps.end(),
                           [](const IndexMap &A, const IndexMap &B) {
                             auto Rank = [](const IndexMap &M) {
                               return M.K != IndexMap::Kind::Grid ? 3
                                      : M.Ax == Axis::Z           ? 0
                                      : M.Ax == Axis::Y           ? 1
                                                                  : 2;
                             };
                             return Rank(A) < Rank(B);
                           });
          Sch.Prefetch = {Sh->Read[0], Sh->Read[1]};
          std::sort(Sch.Prefetch.begin(), Sch.Prefetch.end());
          auto Add = [&] {
            if (validateSchedule(Sch, K, S).empty())
              Out.push_back(Sch);
          };
          Add();
          Sch.Pipelined = true;
          Add();
          Sch.Async = true;
          // Two to four buffers: the copies one to three tiles ahead.
          for (Sch.Buffers = 2; Sch.Buffers <= 4; ++Sch.Buffers)
            Add();
        }
      }
}

std::vector<Candidate> enumerateStatement(const Kernel &K, const Statement &S,
                                          const PlannerOptions &Opts) {
  std::vector<Schedule> Families[2];
  enumerateFamily(K, S, Opts, {{Axis::X, Axis::Y, Axis::Z}, false},
                  Families[0]);
  enumerateMma(K, S, Opts, Families[0]);
  if (!S.ReductionIndices.empty() && S.OutputIndices.size() <= 1)
    enumerateFamily(K, S, Opts, {{Axis::Y, Axis::Z}, true}, Families[1]);
  // Without output indices both families put the reduction on x.
  std::vector<Candidate> Out;
  std::set<std::string> Seen;
  for (unsigned F = 0; F < 2; ++F)
    for (Schedule &Sch : Families[F])
      if (Seen.insert(Sch.str(K, S)).second)
        Out.push_back({std::move(Sch), F});
  return Out;
}

/// The schedules with fewer grid axes than outputs (the first \p Axes of
/// x, y, z), the other outputs sequential in each thread: for a grid past
/// the device's limits at huge sizes. With no axis, the whole statement may
/// run on one thread.
std::vector<Candidate> enumerateFewerAxes(const Kernel &K, const Statement &S,
                                          const PlannerOptions &Opts,
                                          unsigned Axes) {
  Family Fam{{Axis::X, Axis::Y, Axis::Z}, false, Axes == 0};
  Fam.Axes.resize(Axes);
  std::vector<Schedule> Schedules;
  enumerateFamily(K, S, Opts, Fam, Schedules);
  std::vector<Candidate> Out;
  for (Schedule &Sch : Schedules)
    Out.push_back({std::move(Sch), 0});
  return Out;
}

/// Every order of \p V, or only \p V itself past three entries.
std::vector<std::vector<unsigned>> loopOrders(const std::vector<unsigned> &V) {
  if (V.size() > 3)
    return {V};
  std::vector<std::vector<unsigned>> Out;
  std::vector<size_t> P(V.size());
  for (size_t I = 0; I < P.size(); ++I)
    P[I] = I;
  do {
    std::vector<unsigned> O;
    for (size_t I : P)
      O.push_back(V[I]);
    Out.push_back(O);
  } while (std::next_permutation(P.begin(), P.end()));
  return Out;
}

void enumerateFamily(const Kernel &K, const Statement &S,
                     const PlannerOptions &Opts, const Family &Fam,
                     std::vector<Schedule> &Out) {
  // Output indices: contiguous one first (x, or y when the reduction takes
  // x), then the others in every order of taking the axes left (y and z;
  // only y gets a tile of more than one output, so which index takes it
  // decides the block's reuse: in y[i, l, k] = sum(j, u[l, j] * x[i, j, k])
  // l on y reuses x[i, j, k] across l, i on y reuses nothing); the rest run
  // sequentially.
  std::vector<unsigned> Outs = S.OutputIndices;
  if (auto C = contiguousOutput(K, S)) {
    Outs.erase(std::find(Outs.begin(), Outs.end(), *C));
    Outs.insert(Outs.begin(), *C);
  }
  const std::vector<Axis> &Axes = Fam.Axes;
  if (Outs.size() <= 2 || Axes.size() < 3) {
    enumerateGrid(K, S, Opts, Fam, Outs, Out);
    return;
  }
  // Each output but the first takes y in turn, and z the first of the
  // others in domain order (a tile of one on z, which index takes it
  // matters less); their loops come in every order below.
  // With fixed extents, the outputs past the third may also share z's
  // blocks: a grid of every output, where running them sequentially in
  // each thread leaves a grid too small to fill the GPU (a 4-index
  // contraction's 40 x 40 x 40 x 40 outputs in 360 blocks).
  bool CanShareZ = Outs.size() > 3 && Axes.size() == 3 &&
                   std::all_of(Outs.begin(), Outs.end(), [&](unsigned O) {
                     return fixedExtent(S.Domain, S.tuplePos(O)).has_value();
                   });
  for (size_t Y = 1; Y < Outs.size(); ++Y) {
    std::vector<unsigned> Order = Outs;
    Order.erase(Order.begin() + Y);
    Order.insert(Order.begin() + 1, Outs[Y]);
    enumerateGrid(K, S, Opts, Fam, Order, Out);
    if (CanShareZ) {
      Family Shared = Fam;
      Shared.ShareZ = true;
      enumerateGrid(K, S, Opts, Shared, Order, Out);
    }
  }
}

void enumerateGrid(const Kernel &K, const Statement &S,
                   const PlannerOptions &Opts, const Family &Fam,
                   const std::vector<unsigned> &Outs,
                   std::vector<Schedule> &Out) {
  const std::vector<Axis> &Axes = Fam.Axes;
  std::vector<unsigned> Grid, SeqOut;
  for (unsigned O : Outs)
    (Grid.size() < Axes.size() ? Grid : SeqOut).push_back(O);
  std::vector<unsigned> OnZ; // further outputs sharing z
  if (Fam.ShareZ)
    std::swap(OnZ, SeqOut);

  // Cartesian product of the grid axes' choices.
  std::vector<std::vector<IndexMap>> GridMaps = {{}};
  for (size_t G = 0; G < Grid.size(); ++G) {
    std::vector<std::vector<IndexMap>> Next;
    for (const auto &Prefix : GridMaps)
      for (const AxisChoice &C :
           axisChoices(Axes[G], fixedExtent(S.Domain, S.tuplePos(Grid[G])))) {
        IndexMap M;
        M.Index = Grid[G];
        M.K = IndexMap::Kind::Grid;
        M.Ax = Axes[G];
        M.Threads = C.Threads;
        M.Ilp = C.Ilp;
        M.Run = C.Run;
        auto P = Prefix;
        P.push_back(M);
        Next.push_back(std::move(P));
      }
    GridMaps = std::move(Next);
  }
  for (auto &GM : GridMaps)
    for (unsigned O : OnZ) {
      IndexMap M;
      M.Index = O;
      M.K = IndexMap::Kind::Grid;
      M.Ax = Axis::Z;
      GM.push_back(M);
    }

  // Reduction choices, for every order of the reduction loops.
  struct RedChoice {
    std::vector<IndexMap> Maps;
    bool CanPrefetch;
    bool OnlyAllStaged; // no unstaged or partly staged variants
    bool OnlyStaged = false; // no unstaged variant
  };
  std::vector<RedChoice> RedChoices;
  auto AddChoices = [&](const std::vector<unsigned> &Red) {
    // Every reduction index sequential; the choices change the last one.
    std::vector<IndexMap> AllSeq;
    for (unsigned R : Red) {
      IndexMap M;
      M.Index = R;
      AllSeq.push_back(M);
    }
    if (Fam.ReductionOnX) {
      // Block-parallel along x, or split across x's blocks with each thread
      // taking a few values of its block's chunk.
      for (long T : {32, 64, 128, 256, 512})
        for (long PerThread : {0, 8, 32, 128}) {
          auto M = AllSeq;
          M.back().K = IndexMap::Kind::Block;
          M.back().Ax = Axis::X;
          M.back().Threads = T;
          M.back().Chunk = T * PerThread;
          RedChoices.push_back({M, false, false});
        }
    } else {
      RedChoices.push_back({AllSeq, Red.empty(), false});
      if (!Red.empty()) {
        // Tiles of 8 with every staging choice; longer tiles staging all.
        // A short fixed reduction (35 values) also in one tile of its
        // whole extent, with no partial tile.
        std::vector<long> Tiles = {8, 16, 32};
        if (std::optional<long> E = fixedExtent(S.Domain, S.tuplePos(Red.back()));
            E && *E > 8 && *E <= 64 && *E != 16 && *E != 32)
          Tiles.push_back(*E);
        for (long T : Tiles) {
          auto M = AllSeq;
          M.back().K = IndexMap::Kind::Tiled;
          M.back().Tile = T;
          RedChoices.push_back({M, true, T != 8});
          // The other reduction indices also as loops of the block around
          // the tiles (seq,outer): each tile then stages one value of
          // them, a matrix product's tile over a contraction whose
          // indices cannot merge (x[a, e, b, f] * y[d, f, c, e]); without
          // staging it is only another loop order. Short loops (a 3 x 3
          // filter's rows) stay inside: their whole extent is a small
          // footprint already.
          bool LongOuter = std::all_of(
              Red.begin(), Red.end() - 1, [&](unsigned R) {
                std::optional<long> E = fixedExtent(S.Domain, S.tuplePos(R));
                return !E || *E >= 8;
              });
          if (Red.size() > 1 && LongOuter) {
            for (size_t I = 0; I + 1 < M.size(); ++I)
              M[I].Outer = true;
            RedChoices.push_back({M, true, T != 8, true});
            // Or around tiles of 8 of their values: each stage a tile over
            // several reduction indices, so that a read whose contiguous
            // index is an outer one still loads whole runs of it
            // (x[a, e, b, f] with f outer: 8 adjacent values of f). A
            // reduction of fewer than two such tiles stays inside.
            bool LongerOuter = std::all_of(
                Red.begin(), Red.end() - 1, [&](unsigned R) {
                  std::optional<long> E = fixedExtent(S.Domain, S.tuplePos(R));
                  return !E || *E >= 16;
                });
            if (LongerOuter) {
              for (size_t I = 0; I + 1 < M.size(); ++I)
                M[I].Tile = 8;
              RedChoices.push_back({M, true, T != 8, true});
            }
          }
        }
        Axis Free = Grid.size() < 3 ? Axes[Grid.size()] : Axis::X;
        if (Grid.size() < 3)
          for (long T : {32, 64, 128, 256}) {
            if (Free == Axis::Z && T > 64)
              continue;
            auto M = AllSeq;
            M.back().K = IndexMap::Kind::Block;
            M.back().Ax = Free;
            M.back().Threads = T;
            RedChoices.push_back({M, false, false});
          }
      }
    }
  };
  for (const std::vector<unsigned> &Red : loopOrders(S.ReductionIndices))
    AddChoices(Red);

  // Reads worth staging: a read whose subscripts use no index is one
  // element for the whole kernel, which every thread reads alike from the
  // cache; staging it would only add a load and a barrier. With a
  // reduction, only the reads under it: the others (beta * c[i, j] in
  // c[i, j] = beta * c[i, j] + sum(...)) are read once per output, after
  // the reduction, from the array; staging them would load their tile
  // again for every reduction tile, for nothing.
  std::vector<bool> Reduced = readsAtEveryPoint(S);
  std::vector<unsigned> Stageable;
  for (unsigned R = 0; R < S.Reads.size() && Stageable.size() < 4; ++R) {
    const Access &A = S.Reads[R];
    if (!Reduced[R])
      continue;
    bool UsesIndex = false;
    for (unsigned D = 0; D < K.Args[A.Arg].rank() && !UsesIndex; ++D)
      for (unsigned I = 0; I < S.Indices.size() && !UsesIndex; ++I)
        UsesIndex = accessUses(A.Relation, D, I);
    if (UsesIndex)
      Stageable.push_back(R);
  }
  // Which of the statement's indices each read worth staging uses, by
  // tuple position (for runs on x, below).
  std::vector<std::vector<bool>> StagedUses(S.Reads.size());
  for (unsigned R : Stageable)
    for (unsigned I = 0; I < S.Indices.size(); ++I)
      StagedUses[R].push_back(accessUses(S.Reads[R].Relation, -1, I));
  // What is staged together: each read alone, or in a fused statement
  // (Fusion.h), whose reads are those of several, two groups -- the reads
  // its writes share, which fusion loads once, and the others -- so that
  // a fused group adds as many schedules as one of its statements.
  std::vector<std::vector<unsigned>> Units;
  if (S.MoreOutputs.empty()) {
    for (unsigned R : Stageable)
      Units.push_back({R});
  } else {
    std::vector<unsigned> Users(S.Reads.size(), 0);
    for (unsigned O = 0; O < outputCount(S); ++O) {
      std::set<unsigned> Seen;
      std::function<void(const Expr &)> Mark = [&](const Expr &E) {
        if (E.Kind == ExprKind::Read && Seen.insert(E.AccessId).second)
          ++Users[E.AccessId];
        for (const ExprPtr &X : E.Operands)
          Mark(*X);
      };
      Mark(outputRhs(S, O));
    }
    std::vector<unsigned> Shared, Own;
    for (unsigned R : Stageable)
      (Users[R] > 1 ? Shared : Own).push_back(R);
    for (std::vector<unsigned> *U : {&Shared, &Own})
      if (!U->empty())
        Units.push_back(*U);
  }

  // The sequential output loops, outermost, in every order too.
  for (const std::vector<unsigned> &SeqOrder : loopOrders(SeqOut))
  for (const auto &GM : GridMaps)
    for (const RedChoice &RC : RedChoices) {
      Schedule Sch;
      for (unsigned O : SeqOrder) {
        IndexMap M;
        M.Index = O;
        Sch.Maps.push_back(M);
      }
      // Loop order in the string: z, y, x grid maps, then reductions.
      for (auto It = GM.rbegin(); It != GM.rend(); ++It)
        Sch.Maps.push_back(*It);
      for (const IndexMap &M : RC.Maps)
        Sch.Maps.push_back(M);
      // A statement without indices runs once, on one thread: the thread
      // constraints cannot apply to it.
      long T = Sch.totalThreads();
      if (!S.Indices.empty() && !(Fam.OneThread && T == 1) &&
          (T < Opts.MinThreads || T > Opts.MaxThreads || T % 32 != 0))
        continue;
      // A fused statement holds each of its outputs' registers.
      if (Sch.registerOutputs() * outputCount(S) > Opts.MaxRegisterOutputs)
        continue;
      if (!validateSchedule(Sch, K, S).empty())
        continue;
      if (RC.OnlyStaged && Stageable.empty())
        continue;
      // Outputs on x in runs shorter than the thread's (ilp8s4) serve the
      // vector reads, under a reduction, of a buffer staged along x;
      // elsewhere they only spread a thread's accesses.
      std::optional<unsigned> RunsOn;
      for (const IndexMap &M : GM)
        if (M.Ax == Axis::X && M.run() > 1 && M.run() < M.Ilp)
          RunsOn = S.tuplePos(M.Index);
      auto RunsServe = [&](const Schedule &P) {
        if (!RunsOn)
          return true;
        if (S.ReductionIndices.empty())
          return false;
        return std::any_of(P.Prefetch.begin(), P.Prefetch.end(),
                           [&](unsigned R) { return StagedUses[R][*RunsOn]; });
      };
      if ((!RC.OnlyAllStaged || Stageable.empty()) && !RC.OnlyStaged &&
          RunsServe(Sch))
        Out.push_back(Sch);
      if (!RC.CanPrefetch || Stageable.empty())
        continue;
      // Every non-empty subset of the reads worth staging (the first
      // four), by the units staged together.
      unsigned NR = Units.size();
      unsigned All = (1u << NR) - 1;
      for (unsigned Mask = RC.OnlyAllStaged ? All : 1; Mask <= All; ++Mask) {
        Schedule P = Sch;
        for (unsigned R = 0; R < NR; ++R)
          if (Mask & (1u << R))
            P.Prefetch.insert(P.Prefetch.end(), Units[R].begin(),
                              Units[R].end());
        std::sort(P.Prefetch.begin(), P.Prefetch.end());
        if (!RunsServe(P))
          continue;
        Out.push_back(P);
        // Register-tiled variants staging every read, also with the next
        // tile's loads overlapping this tile's work.
        if (Mask == All && P.registerOutputs() >= 16) {
          P.Pipelined = true;
          if (validateSchedule(P, K, S).empty())
            Out.push_back(P);
          // And with later tiles copied asynchronously into their
          // buffers: the next one into the other of two, or with three
          // buffers the one after too.
          P.Async = true;
          for (P.Buffers = 2; P.Buffers <= 3; ++P.Buffers)
            if (validateSchedule(P, K, S).empty())
              Out.push_back(P);
        }
      }
    }
}

} // namespace

/// Footprints and the grid depend only on the block's tile, the reduction
/// tile and what is staged, and the staged buffers' padded layout on the
/// thread's register tile (which dimension it reads side by side), not on
/// how threads split the tile: a key of those lets one isl computation
/// serve many schedules.
static std::string figuresKey(const Schedule &Sch) {
  std::string Key;
  for (const IndexMap &M : Sch.Maps)
    Key += std::to_string(M.Index) + ":" + std::to_string(int(M.K)) + "/" +
           std::to_string(M.K == IndexMap::Kind::Grid ? M.blockTile() : 0) +
           "/" + std::to_string(M.K == IndexMap::Kind::Grid ? M.Ilp : 0) +
           M.runSuffix() +
           "/" + std::to_string(M.Tile) + "/" +
           std::to_string(M.K == IndexMap::Kind::Block ? M.Threads : 0) + "/" +
           std::to_string(M.Chunk) + (M.Outer ? "o" : "") + " ";
  Key += "r" + std::to_string(Sch.registerOutputs()) + " p";
  for (unsigned P : Sch.Prefetch)
    Key += std::to_string(P) + ",";
  // Pipelined stages may be double-buffered: twice the shared memory, or
  // with more buffers more.
  if (Sch.Pipelined)
    Key += " pipelined";
  if (Sch.Async && Sch.Buffers != 2)
    Key += " buffers" + std::to_string(Sch.Buffers);
  // The tensor cores' stages have rows of their own.
  if (Sch.Mma)
    Key += " mma";
  return Key;
}

/// Why a grid of known size cannot be launched (CUDA's limits, and at
/// least the blocks asked for), or "" where it can or where its size
/// depends on sizes not fixed (the launch checks those).
static std::string unlaunchable(const Figures &F, const PlannerOptions &Opts) {
  if (F.Empty)
    return "";
  long Total = 1;
  for (int A = 0; A < 3; ++A) {
    if (F.GridBlocks[A] < 0)
      return "";
    if (F.GridBlocks[A] > MaxGridBlocks[A])
      return "the grid needs more blocks along " +
             std::string(1, axisLetter(static_cast<Axis>(A))) +
             " than the device's limit of " + std::to_string(MaxGridBlocks[A]) +
             "; use smaller sizes";
    Total *= F.GridBlocks[A];
  }
  if (Total < Opts.MinBlocks)
    return "the grid has fewer blocks than --min-blocks=" +
           std::to_string(Opts.MinBlocks);
  return "";
}

/// Whether some axis of \p F's grid has more blocks than the device allows.
static bool pastGridLimit(const Figures &F) {
  for (int A = 0; A < 3; ++A)
    if (F.GridBlocks[A] > MaxGridBlocks[A])
      return true;
  return false;
}

/// Figures computed by analyzeStatement, by figuresKey.
using FiguresCache = std::map<std::string, Expected<LoweringFigures>>;

/// The figures of \p Sch for \p S from its analysis \p LF; false with
/// \p Error set where the analysis failed.
static bool figuresOf(const Kernel &K, const Statement &S, const Schedule &Sch,
                      const Expected<LoweringFigures> &LF, Figures &F,
                      std::string &Error, const CostFacts &Facts) {
  if (!LF) {
    Error = LF.failure().Message;
    return false;
  }
  F.Threads = Sch.totalThreads();
  F.RegisterOutputs = Sch.registerOutputs() * outputCount(S);
  F.SharedBytes = LF->SharedBytes;
  F.Blocks = "(" + LF->Grid[0] + ", " + LF->Grid[1] + ", " + LF->Grid[2] + ")";
  for (int A = 0; A < 3; ++A)
    F.GridBlocks[A] = LF->Blocks[A];
  F.Empty = LF->Empty;
  F.Cost = F.Empty ? 0 : estimateCost(K, S, Sch, *LF, Facts);
  return true;
}

bool computeFigures(const Kernel &K, const Statement &S, const Schedule &Sch,
                    Figures &F, std::string &Error) {
  // isl's operations quota, where the caller set one, bounds this analysis.
  isl_ctx_reset_operations(K.Domain.ctx().get());
  return figuresOf(K, S, Sch, analyzeStatement(K, S, Sch, nullptr, nullptr), F,
                   Error, CostFacts(K, S));
}

namespace {
/// Why the schedules of a statement were left out: each reason with the
/// schedules it stopped and the families they belong to.
class Rejections {
public:
  void add(const std::string &Reason, unsigned Family) {
    Entry &E = Reasons[Reason];
    ++E.Schedules;
    E.Families.insert(Family);
    ++Tried;
  }

  /// ": R1 (...); R2 (...)", the reasons that stop the most families of
  /// schedules first, then the first family's, then the most schedules'
  /// (the blocker common to the whole space, rather than the last one
  /// tried); "" if there is none.
  std::string summary() const {
    std::vector<std::pair<const std::string *, const Entry *>> Ranked;
    for (const auto &[Reason, E] : Reasons)
      Ranked.push_back({&Reason, &E});
    std::stable_sort(Ranked.begin(), Ranked.end(), [](const auto &A, const auto &B) {
      const Entry &X = *A.second, &Y = *B.second;
      if (X.Families.size() != Y.Families.size())
        return X.Families.size() > Y.Families.size();
      if (*X.Families.begin() != *Y.Families.begin())
        return *X.Families.begin() < *Y.Families.begin();
      return X.Schedules > Y.Schedules;
    });
    std::string Out;
    for (size_t I = 0; I < Ranked.size() && I < 3; ++I) {
      Out += (I ? "; " : ": ") + *Ranked[I].first;
      if (Ranked.size() > 1)
        Out += " (" + std::to_string(Ranked[I].second->Schedules) + " of " +
               std::to_string(Tried) + " schedules)";
    }
    if (Ranked.size() > 3)
      Out += "; and " + std::to_string(Ranked.size() - 3) + " other reasons";
    return Out;
  }

private:
  struct Entry {
    size_t Schedules = 0;
    std::set<unsigned> Families;
  };
  std::map<std::string, Entry> Reasons;
  size_t Tried = 0;
};
} // namespace

/// A 64-bit FNV-1a hash of \p Text: the same on every platform and build.
static uint64_t stableHash(std::string_view Text) {
  uint64_t H = 14695981039346656037ull;
  for (unsigned char C : Text) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

/// The distinct analyses (figuresKey) of \p Candidates.
static std::set<std::string> analysisKeys(const std::vector<Candidate> &Candidates) {
  std::set<std::string> Keys;
  for (const Candidate &C : Candidates)
    Keys.insert(figuresKey(C.Sch));
  return Keys;
}

/// The analysis keys of \p Keys (each with its first schedule) that
/// planning analyses, at most \p Share, in the order it analyses them:
/// lowest stableHash first, a spread over the whole space that depends on
/// the keys alone -- not on the order of enumeration, the machine or the
/// time taken.
static std::vector<std::string>
chooseKeys(const std::map<std::string, const Schedule *> &Keys, size_t Share) {
  std::vector<std::pair<uint64_t, const std::string *>> ByHash;
  for (const auto &[Key, Sch] : Keys)
    ByHash.push_back({stableHash(Key), &Key});
  std::sort(ByHash.begin(), ByHash.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first < B.first : *A.second < *B.second;
  });
  std::vector<std::string> Out;
  for (size_t I = 0; I < Share && I < ByHash.size(); ++I)
    Out.push_back(*ByHash[I].second);
  return Out;
}

/// isl's operations (tableau pivots) that an analysis counts for in the plan
/// limit's measure of work. The examples' and the zoo's analyses average
/// under it (matmul's 3360 fit in 1000 each but for 1537 of them); domains
/// with holes and pieces take up to twenty times as many.
constexpr unsigned long OperationsPerAnalysis = 3000;

/// isl's operations that planning may spend on a space of \p Share
/// analyses (0: no bound): its share of the plan limit in the measure
/// above, within --isl-max-operations.
static unsigned long spaceOperations(const PlannerOptions &Opts, size_t Share) {
  unsigned long Ops = Opts.MaxAnalyses ? Share * OperationsPerAnalysis : 0;
  if (Opts.IslMaxOperations && (!Ops || Opts.IslMaxOperations < Ops))
    Ops = Opts.IslMaxOperations;
  return Ops;
}

namespace {
/// One view of a kernel (the kernel itself, its merged indices or its fused
/// statements) and the schedules of each of its statements.
struct PlannedView {
  const Kernel *K;
  std::string Tag; // "" for the kernel itself
  bool Fused = false;
  std::vector<std::vector<Candidate>> Spaces;
  std::vector<size_t> Keys;   // distinct analyses of each space
  std::vector<size_t> Shares; // analyses planning may spend on each
};
} // namespace

/// Shares of \p Limit analyses (0: no limit) for spaces of \p Keys distinct
/// analyses each: every space gets all of its own up to an equal part of
/// what the smaller ones leave, so that the bound takes from the largest.
static std::vector<size_t> shareAnalyses(const std::vector<size_t> &Keys,
                                         size_t Limit) {
  std::vector<size_t> Shares = Keys;
  if (Limit == 0)
    return Shares;
  std::vector<size_t> Order(Keys.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Keys[A] < Keys[B]; });
  size_t Left = Limit;
  for (size_t N = 0; N < Order.size(); ++N) {
    size_t Fair = Left / (Order.size() - N);
    Shares[Order[N]] = std::min(Keys[Order[N]], std::max<size_t>(Fair, 1));
    Left -= std::min(Left, Shares[Order[N]]);
  }
  return Shares;
}

/// Partitions of a space's analyses. Schedules of one block shape share
/// isl's facts (LoweringCache::Block, FiguresMemo), so each shape falls in
/// one partition, which analyses its schedules in order with caches of its
/// own and its part of the space's work: the analyses made, and so the
/// variants, are the same however many threads take the partitions. A
/// partition holds at least AnalysesPerPartition of them, and as many
/// analyses' worth of isl's operations, where there are that many, so that
/// the statement's facts, which each partition finds again, cost little
/// next to its share.
constexpr size_t AnalysisPartitions = 32, AnalysesPerPartition = 128;

namespace {
/// A partition's copy of the kernel, in an isl context of its own, and of
/// the views made from it as they are first asked for. Each partition
/// starts from a copy of its own: isl keeps facts inside the sets it has
/// worked on (a sample point of each, say), so that a copy that analysed
/// other partitions first would count other operations.
struct PartitionCopy {
  IslContext Isl; // first in, last out
  Expected<Kernel> K;
  /// The views, once made (empty where the kernel has none).
  std::optional<std::optional<MergedKernel>> Merged;
  std::optional<std::optional<FusedKernel>> Fused;

  explicit PartitionCopy(const PlanThreads &T) : K(T.Rebuild(Isl.get())) {}

  /// The copy of \p V's kernel.
  const Kernel &view(const PlannedView &V) {
    if (!K)
      throw std::runtime_error("planning could not rebuild the kernel: " +
                               K.failure().Message);
    if (V.Tag.empty())
      return *K;
    const Kernel *Out =
        V.Fused ? made(Fused, [&] { return fuseStatements(*K); }, V.Tag)
                : made(Merged, [&] { return mergeIndices(*K); }, V.Tag);
    if (!Out)
      throw std::logic_error("a rebuilt kernel has another view than " + V.Tag);
    return *Out;
  }

private:
  /// The kernel of the view in \p Slot, made by \p Make the first time,
  /// where its tag is \p Tag.
  template <class View, class MakeFn>
  static const Kernel *made(std::optional<std::optional<View>> &Slot,
                            MakeFn Make, const std::string &Tag) {
    if (!Slot)
      Slot.emplace(Make());
    return *Slot && (*Slot)->Tag == Tag ? &(*Slot)->K : nullptr;
  }
};

} // namespace

/// Analyses \p Chosen (keys of \p First, in chooseKeys's order) of statement
/// \p SI of \p View in partitions: the first alone within
/// --isl-max-operations (it fails planning with isl's quota error where that
/// runs out), so that every statement has one, each partition's others
/// within its part of \p Ops (0: no bound), stopping at the first past it.
/// The analyses made, by position in \p Chosen.
static std::vector<std::optional<Expected<LoweringFigures>>>
analyseSpace(const PlannedView &View, size_t SI,
             const std::vector<std::string> &Chosen,
             const std::map<std::string, const Schedule *> &First,
             unsigned long Ops, const PlannerOptions &Opts,
             const PlanThreads *Threads) {
  std::vector<std::optional<Expected<LoweringFigures>>> Results(Chosen.size());
  if (Chosen.empty())
    return Results;
  // Analyses Chosen[I] into Results[I]; false where the quota ran out.
  auto Analyse = [&](const Kernel &KV, size_t I, LoweringCache &Cache,
                     FiguresMemo &Memo, IslMaxOperationsGuard &Budget) {
    std::optional<Expected<LoweringFigures>> R;
    try {
      R.emplace(analyzeStatement(KV, KV.Stmts[SI], *First.at(Chosen[I]),
                                 &Cache, &Memo));
    } catch (isl::exception &E) {
      if (!dynamic_cast<isl::exception_quota *>(&E) &&
          !Budget.hasQuotaExceeded())
        throw;
    }
    if (!R || Budget.hasQuotaExceeded())
      return false;
    Results[I] = std::move(*R);
    return true;
  };
  const Kernel &K = *View.K;
  // Each partition with the keys and the quota of AnalysesPerPartition
  // analyses at least, where --isl-max-operations leaves less than the plan
  // limit's measure.
  size_t Count = Chosen.size() / AnalysesPerPartition;
  if (Ops)
    Count = std::min<size_t>(
        Count, Ops / (AnalysesPerPartition * OperationsPerAnalysis));
  Count = std::clamp<size_t>(Count, 1, AnalysisPartitions);
  std::vector<std::vector<size_t>> Parts(Count);
  for (size_t I = 0; I < Chosen.size(); ++I)
    Parts[stableHash(blockKey(K.Stmts[SI], *First.at(Chosen[I]))) % Count]
        .push_back(I);
  std::erase_if(Parts, [](const std::vector<size_t> &P) { return P.empty(); });
  // The largest first, so that no thread is left with one at the end.
  std::stable_sort(Parts.begin(), Parts.end(),
                   [](const auto &A, const auto &B) { return A.size() > B.size(); });
  auto Part = [&](const Kernel &KV, size_t P) {
    unsigned long Share =
        Ops ? std::max<unsigned long>(1, Ops * Parts[P].size() / Chosen.size())
            : 0;
    LoweringCache Cache;
    FiguresMemo Memo;
    isl_ctx *Ctx = KV.Domain.ctx().get();
    auto Items = Parts[P].begin();
    if (*Items == 0) {
      IslMaxOperationsGuard Budget(Ctx, Opts.IslMaxOperations);
      if (!Analyse(KV, 0, Cache, Memo, Budget))
        isl::exception::throw_error(isl_error_quota,
                                    "the operations quota ran out in planning",
                                    __FILE__, __LINE__);
      ++Items;
    }
    IslMaxOperationsGuard Budget(Ctx, Share);
    for (; Items != Parts[P].end(); ++Items)
      if (!Analyse(KV, *Items, Cache, Memo, Budget))
        break;
  };
  if (Threads)
    parallelFor(Parts.size(), Threads->Count, [&](size_t P) {
      PartitionCopy Copy(*Threads);
      Part(Copy.view(View), P);
    });
  else
    for (size_t P = 0; P < Parts.size(); ++P)
      Part(K, P);
  return Results;
}

/// The variants of one view of a kernel, best first.
static std::vector<Variant> planStatements(const PlannedView &View,
                                           const PlannerOptions &Opts,
                                           const PlanThreads *Threads,
                                           std::string &Error,
                                           SpaceSize &Size) {
  const Kernel &K = *View.K;
  // Rank each statement's schedules on their own.
  std::vector<std::vector<std::pair<Schedule, Figures>>> Per;
  for (size_t SI = 0; SI < K.Stmts.size(); ++SI) {
    const Statement &S = K.Stmts[SI];
    std::vector<std::pair<Schedule, Figures>> Legal;
    Rejections Why;
    FiguresCache Cache;
    CostFacts Facts(K, S);
    bool PastGridLimit = false;
    // The analyses left out where the space is larger than its share.
    size_t LeftOut = 0, Space = 0;
    auto Keep = [&](const std::vector<Candidate> &Candidates) {
      // Each candidate's analysis key, and the first schedule of each key.
      std::vector<std::string> KeyOf;
      std::map<std::string, const Schedule *> First;
      for (const Candidate &C : Candidates) {
        KeyOf.push_back(figuresKey(C.Sch));
        First.emplace(KeyOf.back(), &C.Sch);
      }
      std::vector<std::string> Chosen = chooseKeys(First, View.Shares[SI]);
      Space += First.size();
      // The analyses, in the order of chooseKeys: the first within
      // --isl-max-operations alone, so that every statement has one, the
      // others in partitions that each spend their part of the space's
      // share of the plan limit's work -- a spread of the space however far
      // they go.
      std::vector<std::optional<Expected<LoweringFigures>>> Results =
          analyseSpace(View, SI, Chosen, First,
                       spaceOperations(Opts, View.Shares[SI]), Opts, Threads);
      size_t Done = 0;
      for (size_t I = 0; I < Chosen.size(); ++I)
        if (Results[I]) {
          Cache.emplace(Chosen[I], std::move(*Results[I]));
          ++Done;
        }
      LeftOut += First.size() - Done;
      for (size_t I = 0; I < Candidates.size(); ++I) {
        const Candidate &C = Candidates[I];
        const Schedule &Sch = C.Sch;
        auto Analysis = Cache.find(KeyOf[I]);
        if (Analysis == Cache.end())
          continue;
        Figures F;
        std::string Reason;
        if (!figuresOf(K, S, Sch, Analysis->second, F, Reason, Facts)) {
          Why.add(Reason, C.Family);
          continue;
        }
        if (F.SharedBytes > Opts.MaxSharedBytes) {
          Why.add(
              "the staged reads need more shared memory than --max-shared=" +
                  std::to_string(Opts.MaxSharedBytes) + " bytes",
              C.Family);
          continue;
        }
        if (std::string R = unlaunchable(F, Opts); !R.empty()) {
          PastGridLimit |= pastGridLimit(F);
          Why.add(R, C.Family);
          continue;
        }
        Legal.push_back({Sch, F});
        // A statement with no point does nothing, whatever its schedule.
        if (F.Empty)
          break;
      }
    };
    Keep(View.Spaces[SI]);
    // Grids past the device's limits (sizes near 2^31 and beyond): fewer
    // outputs on the grid, the others sequential in each thread, down to
    // the whole statement on one thread if need be.
    for (int Axes = 2; Legal.empty() && PastGridLimit && Axes >= 0; --Axes)
      if (static_cast<size_t>(Axes) < S.OutputIndices.size())
        Keep(enumerateFewerAxes(K, S, Opts, Axes));
    Size.Shapes += Space;
    Size.Analysed += Space - LeftOut;
    if (Legal.empty()) {
      Error = "no schedule of statement " + S.Name + " fits the constraints" +
              Why.summary();
      if (LeftOut)
        Error += "; planning analysed " + std::to_string(Space - LeftOut) +
                 " of its " + std::to_string(Space) +
                 " schedule shapes (raise --plan-limit=" +
                 std::to_string(Opts.MaxAnalyses) + ")";
      return {};
    }
    std::stable_sort(Legal.begin(), Legal.end(), [](const auto &A, const auto &B) {
      return A.second.Cost < B.second.Cost;
    });
    Per.push_back(std::move(Legal));
  }
  // A kernel variant takes one schedule per statement: each statement's
  // schedules in turn, with the other statements at their best.
  std::vector<Variant> Out;
  for (size_t S = 0; S < Per.size(); ++S)
    for (size_t I = (S == 0 ? 0 : 1); I < Per[S].size(); ++I) {
      Variant V;
      for (size_t T = 0; T < Per.size(); ++T) {
        const auto &P = Per[T][T == S ? I : 0];
        V.Schedules.push_back(P.first);
        V.Stats.push_back(P.second);
        V.Cost += P.second.Cost;
        V.Name += (T ? " | " : "") + P.first.str(K, K.Stmts[T]);
      }
      Out.push_back(std::move(V));
    }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const Variant &A, const Variant &B) { return A.Cost < B.Cost; });
  return Out;
}

namespace {
/// The views of a kernel, each statement's space enumerated and its share
/// of the analyses set.
struct PlannedViews {
  std::optional<MergedKernel> Merged;
  std::optional<FusedKernel> Fused;
  std::vector<PlannedView> Views;
};
} // namespace

static void planViews(const Kernel &K, const PlannerOptions &Opts,
                      PlannedViews &P) {
  // The views of the same work: the kernel itself, the kernel with the
  // indices that travel together merged, and the one with the statements
  // that run over one output space fused. Each adds its variants to the
  // space, ranked alike, each one family.
  P.Merged = mergeIndices(K);
  P.Fused = fuseStatements(K);
  std::vector<PlannedView> &Views = P.Views;
  Views.push_back({&K, "", false, {}, {}, {}});
  if (P.Merged)
    Views.push_back({&P.Merged->K, P.Merged->Tag, false, {}, {}, {}});
  if (P.Fused)
    Views.push_back({&P.Fused->K, P.Fused->Tag, true, {}, {}, {}});
  // Enumerating costs little next to isl's analysis of a schedule, which
  // --plan-limit bounds for the whole kernel: the spaces are counted first
  // and the analyses shared out. The merged and fused views come first, as
  // they hold the same work in fewer, larger loops or launches, with up to
  // three quarters of the bound; the kernel's own statements share the
  // rest.
  for (PlannedView &V : Views)
    for (const Statement &S : V.K->Stmts) {
      V.Spaces.push_back(enumerateStatement(*V.K, S, Opts));
      V.Keys.push_back(analysisKeys(V.Spaces.back()).size());
    }
  size_t Limit = static_cast<size_t>(std::max(0L, Opts.MaxAnalyses));
  std::vector<size_t> Derived;
  for (size_t I = 1; I < Views.size(); ++I)
    Derived.insert(Derived.end(), Views[I].Keys.begin(), Views[I].Keys.end());
  std::vector<size_t> DerivedShares = shareAnalyses(Derived, Limit - Limit / 4);
  size_t Used = 0;
  for (size_t Share : DerivedShares)
    Used += Share;
  Views[0].Shares = shareAnalyses(
      Views[0].Keys, Limit == 0 ? 0 : std::max<size_t>(Limit - Used, 1));
  size_t Next = 0;
  for (size_t I = 1; I < Views.size(); ++I)
    for (size_t J = 0; J < Views[I].Keys.size(); ++J)
      Views[I].Shares.push_back(DerivedShares[Next++]);
}

std::vector<Variant> planKernel(const Kernel &K, const PlannerOptions &Opts,
                                std::string &Error, SpaceSize *Analysed,
                                const PlanThreads *Threads) {
  PlannedViews P;
  planViews(K, Opts, P);
  const std::vector<PlannedView> &Views = P.Views;
  const PlanThreads *T = Threads && Threads->Rebuild ? Threads : nullptr;
  SpaceSize Size;
  std::vector<Variant> Out = planStatements(Views[0], Opts, T, Error, Size);
  for (size_t I = 1; I < Views.size(); ++I) {
    std::string Unused;
    for (Variant &V : planStatements(Views[I], Opts, T, Unused, Size)) {
      (Views[I].Fused ? V.Fuse : V.Merge) = Views[I].Tag;
      V.Name = Views[I].Tag + " " + V.Name;
      Out.push_back(std::move(V));
    }
    if (!Out.empty())
      Error.clear();
  }
  std::stable_sort(Out.begin(), Out.end(), [](const Variant &A, const Variant &B) {
    return A.Cost < B.Cost;
  });
  if (Analysed)
    *Analysed = Size;
  return Out;
}

bool Variant::tf32() const {
  return std::any_of(Schedules.begin(), Schedules.end(),
                     [](const Schedule &S) { return S.Tf32; });
}

std::optional<Variant> findVariant(const Kernel &K,
                                   const std::vector<Variant> &Variants,
                                   const std::string &Name, std::string &Error) {
  // An index into the ranked list.
  if (!Name.empty() && std::all_of(Name.begin(), Name.end(), ::isdigit)) {
    size_t I = std::stoul(Name);
    if (I >= Variants.size()) {
      Error = "variant index " + Name + " is out of range: there are " +
              std::to_string(Variants.size()) + " variants";
      return std::nullopt;
    }
    return Variants[I];
  }
  // The merge tag, then a schedule string per statement, joined by " | ".
  std::string_view Rest = Name;
  while (!Rest.empty() && Rest.front() == ' ')
    Rest.remove_prefix(1);
  std::optional<MergedKernel> Merged;
  if (Rest.starts_with("merge(")) {
    Merged = mergeIndices(K);
    if (!Merged) {
      Error = "the variant merges indices, but no indices of kernel '" +
              K.Name + "' travel together at these sizes";
      return std::nullopt;
    }
    if (!Rest.starts_with(Merged->Tag + " ")) {
      Error = "the variant's merge does not match the kernel's: at these "
              "sizes its indices merge as '" + Merged->Tag + "'";
      return std::nullopt;
    }
    Rest.remove_prefix(Merged->Tag.size() + 1);
  }
  std::optional<FusedKernel> Fused;
  if (!Merged && Rest.starts_with("fuse(")) {
    Fused = fuseStatements(K);
    if (!Fused) {
      Error = "the variant fuses statements, but no statements of kernel '" +
              K.Name + "' run over one output space";
      return std::nullopt;
    }
    if (!Rest.starts_with(Fused->Tag + " ")) {
      Error = "the variant's fusion does not match the kernel's: its "
              "statements fuse as '" + Fused->Tag + "'";
      return std::nullopt;
    }
    Rest.remove_prefix(Fused->Tag.size() + 1);
  }
  const Kernel &KV = Merged ? Merged->K : Fused ? Fused->K : K;
  std::vector<std::string> Parts;
  for (size_t B = 0;;) {
    size_t C = Rest.find('|', B);
    Parts.push_back(std::string(Rest.substr(B, C - B)));
    if (C == std::string::npos)
      break;
    B = C + 1;
  }
  if (Parts.size() != KV.Stmts.size()) {
    Error = "the variant names " + std::to_string(Parts.size()) +
            " schedule(s), but kernel has " + std::to_string(KV.Stmts.size()) +
            (Fused ? " statement(s) once fused" : " statement(s)") +
            "; separate them with '|'";
    return std::nullopt;
  }
  Variant V;
  if (Merged) {
    V.Merge = Merged->Tag;
    V.Name = Merged->Tag + " ";
  }
  if (Fused) {
    V.Fuse = Fused->Tag;
    V.Name = Fused->Tag + " ";
  }
  for (size_t I = 0; I < Parts.size(); ++I) {
    auto Sch = parseSchedule(Parts[I], KV, KV.Stmts[I], Error);
    if (!Sch)
      return std::nullopt;
    Figures F;
    if (!computeFigures(KV, KV.Stmts[I], *Sch, F, Error))
      return std::nullopt;
    V.Name += (I ? " | " : "") + Sch->str(KV, KV.Stmts[I]);
    V.Schedules.push_back(*Sch);
    V.Stats.push_back(F);
    V.Cost += F.Cost;
  }
  return V;
}

} // namespace loopy
