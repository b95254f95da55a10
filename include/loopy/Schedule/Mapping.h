//===- Mapping.h - Indices on blocks, threads, registers --------*- C++ -*-===//
//
// The first step of lowering, and what the planner's figures start from.
// mapStatement takes a checked statement and one schedule for it and
// produces a StatementMapping: the names of the block and thread
// coordinates, which become isl parameters together with the uniform loop
// iterators and the reduction tile; the context they obey; and the
// per-thread domains of the statement's pieces:
//
//   Ext    { S[indices, regs] } of Update (Compute, without reduction),
//   OutDom { S_out[outputs, regs] } of Init and Write,
//
// extended with one register coordinate per grid-mapped index, where
//   contiguous: o = B*b + Ilp*t + u,   strided: o = B*b + T*u + t,
//   runs of R:  o = B*b + R*t + T*R*floor(u / R) + u mod R.
//
// boundBlocks then bounds the block ids by the largest one any iteration
// uses, and blockGrid gives the grid from those bounds.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_MAPPING_H
#define LOOPY_SCHEDULE_MAPPING_H

#include "loopy/Schedule/IslUtil.h"
#include "loopy/Schedule/LoweringCache.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Schedule.h"
#include "loopy/Support/Expected.h"

#include <isl/cpp.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace loopy {

/// The pieces of a statement's per-thread code: Init and Write run over the
/// output indices (set the accumulators, store them), Update over all
/// indices inside the reduction; Compute is the whole statement where it
/// has no reduction.
enum class Piece { Init, Update, Write, Compute };

/// One reduction of the right-hand side and its register accumulator.
struct Accumulator {
  const Expr *Reduce;
  std::string Name;
  /// The write it serves: 0 for the statement's Write, I for its
  /// MoreOutputs[I - 1] (a fused statement, Fusion.h).
  unsigned Output = 0;
};

/// Names of the generated code, each given out once.
class NameTable {
public:
  void take(const std::string &Name) { Taken.insert(Name); }
  /// \p Base, or \p Base with underscores appended where it is taken.
  std::string fresh(const std::string &Base);

private:
  std::set<std::string> Taken;
};

/// A statement's indices mapped onto blocks, threads and registers.
struct StatementMapping {
  const Kernel *K = nullptr;
  const Statement *S = nullptr;
  const Schedule *Sch = nullptr;
  /// The kernel's context (isl::ctx::get is not const).
  mutable isl::ctx Ctx{nullptr};
  NameTable Names;

  std::string BlockId[3], ThreadId[3];
  /// Under "mma:RxC" with several warps along the rows (0, the index on
  /// y) or the columns (1, on x): the warp's coordinate, a parameter like
  /// the thread ids, from thread axis z (z = C * row + column). Empty where
  /// there is one warp that way.
  std::string WarpId[2];
  /// The largest block id along each grid axis, on the kernel's parameters
  /// (set by boundBlocks). Optional: isl's C++ objects cannot be copied,
  /// or moved, while null.
  std::optional<isl::pw_aff> BlockMax[3];
  /// The parameters of the code: the kernel's sizes that are not fixed at
  /// compile time (the first NumSizes), then block and thread ids, uniform
  /// loop iterators and the reduction tile. A fixed size is substituted
  /// into every set, and isl works on fewer dimensions.
  std::vector<std::string> ParamNames;
  unsigned NumSizes = 0;
  isl::space Params;
  std::vector<const IndexMap *> GridMaps;   // register dimensions, in order
  /// The block id of each of GridMaps: BlockId of its axis, or for the
  /// output indices on z after the first, one of ZParts.
  std::vector<std::string> GridBlockIds;
  /// Output indices past the third share grid axis z with the first on it
  /// (one thread each): their block ids, parameters like BlockId's, and
  /// their numbers of blocks (constants, from boundBlocks). blockIdx.z
  /// numbers the blocks of all of them, the last one's fastest.
  std::vector<std::string> ZParts;
  std::vector<long> ZPartBlocks;
  std::vector<const IndexMap *> SeqOutputs; // block-uniform loops
  const IndexMap *Tiled = nullptr;
  const IndexMap *BlockRed = nullptr;
  std::string TileParam;
  std::vector<std::string> SeqParams; // uniform loop iterators, per SeqOutputs
  /// Reduction indices that run outside the tiles (seq,outer): uniform
  /// loops between the sequential outputs' and the tiles', their
  /// iterators parameters of the update alone.
  std::vector<const IndexMap *> OuterReds;
  std::vector<std::string> OuterParams;
  std::vector<std::string> IndexParamNames; // tuple dim names
  std::vector<std::string> RegNames;

  /// { [params] } the sizes' context, thread ids in range, block ids >= 0
  /// (and, after boundBlocks, at most the largest used).
  isl::set Context;
  /// The kernel's context with the block ids' lower bounds: what the
  /// block-shape facts may assume (no thread ids, no block id bounds).
  isl::set BlockContext;
  isl::set Ext;
  isl::set OutDom;
  std::string TupleUpdate, TupleInit, TupleWrite;
  std::vector<Accumulator> Accs;
  long RegCount = 1;

  /// Position of kernel index \p Index in the statement's tuple, or -1.
  int tuplePos(unsigned Index) const;
  bool isOutput(unsigned Index) const;
  /// The tuple name of piece \p P's domain.
  const std::string &tuple(Piece P) const {
    return P == Piece::Init    ? TupleInit
           : P == Piece::Write ? TupleWrite
                               : TupleUpdate;
  }
  /// The thread ids in use, x first, then the warp ids.
  std::vector<std::string> threadIds() const;
  /// \p X on the lowering's parameters, the sizes fixed at compile time
  /// substituted.
  isl::set align(isl::set X) const;
  isl::map align(isl::map X) const;
  isl::set fixSizes(isl::set X) const;
  isl::map fixSizes(isl::map X) const;
  isl::pw_aff fixSizes(isl::pw_aff X) const;
  /// The tiling relations on the tuple space \p Sp of piece \p P: output
  /// indices as functions of block, thread and register coordinates, the
  /// registers' ranges, and sequential outputs fixed to their loop
  /// iterators.
  isl::set frame(isl::space Sp, Piece P) const;
  /// \p Rel { S[indices] -> A[...] } as a function on piece \p P's tuple:
  /// one piece per piece of the statement's domain where isl simplified
  /// the subscripts apart ((2 * j) % 3 is 2 * j where j < 2 and 1 at
  /// j = 11), so that no piece's form is used on another's points.
  isl::pw_multi_aff accessOnTuple(const isl::map &Rel, Piece P) const;
  /// The first piece of accessOnTuple: the subscripts' form on part of the
  /// domain, for heuristics (a layout) that do not compute addresses.
  isl::multi_aff accessFormOnTuple(const isl::map &Rel, Piece P) const;
  /// { S[indices] } the block's iterations for fixed block ids, tile and
  /// sequential outputs, built from the block's shape alone; those of
  /// \p Domain (on the statement's tuple, aligned) where given instead of
  /// the statement's domain.
  isl::set blockIterations(const isl::set *Domain = nullptr) const;
  /// Where the blocks of an index split among them start, for those that
  /// do not start at 0 (indices that take negative values).
  std::map<unsigned, IndexOrigin> Origins;
  /// \p E with the constraint \p T + \p Cst (= 0 if \p Eq, else >= 0)
  /// where \p Sign times the origin of \p Index is added to the terms
  /// (nothing if the index starts at 0).
  isl::set addOriginConstraint(isl::set E, unsigned Index, long Sign,
                               std::vector<Term> T, long Cst, bool Eq) const;
  /// \p E with B*p <= o - origin < B*(p + 1): index \p Index in the tile
  /// that parameter \p Param numbers.
  isl::set inTile(isl::set E, unsigned Index, const std::string &Param,
                  long B) const;
  /// \p E (on the statement's tuple, aligned) with every grid-mapped index
  /// in its block's tile (inTile with the index's block id).
  isl::set inBlockTiles(isl::set E) const;
  /// \p E with each outer reduction in its loop's value or tile.
  isl::set inOuterTiles(isl::set E) const;
  /// \p E (its first dimensions the statement's indices) with the
  /// reduction indices projected out: on the outputs' tuple.
  isl::set onOutputs(isl::set E) const;
  /// The block's shape, which the facts in LoweringCache::Block follow.
  std::string blockKey() const;
  /// Whether the blocks add their results into the outputs atomically.
  bool splitAcrossBlocks() const { return BlockRed && BlockRed->Chunk; }
  /// Pipelined over reduction tiles with no uniform loop around them:
  /// two buffers per stage, the tile's parity choosing one, so that a
  /// tile's store cannot overwrite what the previous tile still reads and
  /// one barrier per tile is enough.
  bool doubleBuffered() const {
    return Sch->Pipelined && Tiled && SeqOutputs.empty() && OuterReds.empty();
  }
};

/// The shape of the blocks of \p S under \p Sch, which the facts in
/// LoweringCache::Block follow: StatementMapping::blockKey, known from the
/// schedule alone.
std::string blockKey(const Statement &S, const Schedule &Sch);

/// Maps statement \p S of \p K under \p Sch (which the result points to, as
/// it does to \p K and \p S). Fails where the schedule breaks a rule or
/// the reductions are of a form the lowering does not support. \p Cache keeps the statement's facts (where
/// each index's blocks start).
Expected<StatementMapping> mapStatement(const Kernel &K, const Statement &S,
                                        const Schedule &Sch,
                                        LoweringCache &Cache);

/// Bounds the block ids of \p M: Context gains b <= the largest block id
/// used, BlockMax holds it per axis. \p Facts (of M's block shape) keeps
/// the bounds.
void boundBlocks(StatementMapping &M, LoweringCache::Block &Facts);

/// The grid of a bounded mapping: blocks per axis as isl text of the
/// parameters (0 where the domain is empty) and as C, and, with
/// \p WithLaunchIf, where the domain can be empty, the C condition under
/// which the kernel runs.
struct BlockGrid {
  std::string Isl[3];
  std::string C[3];
  std::string LaunchIf;
};
BlockGrid blockGrid(const StatementMapping &M, bool WithLaunchIf);

} // namespace loopy

#endif
