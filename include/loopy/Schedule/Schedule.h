//===- Schedule.h - One point of the schedule space -------------*- C++ -*-===//
//
// A Schedule fixes, for every index of one statement, how it runs on the GPU,
// and which reads are staged in shared memory. Its stable text form
// (`str`) names the variant everywhere: in --emit=variants, --variant=,
// golden tests and the tuning database. For example
//
//   i:g.y,t.y*16,ilp4 j:g.x,t.x*16,ilp4s k:seq*8 prefetch:a,b
//
// reads: i is split over the grid's y axis in tiles of 16 threads x 4
// outputs per thread (contiguous), j likewise on x with each thread's 4
// outputs strided by 16, k runs sequentially in tiles of 8, and the block's
// footprints of a and b for one k tile are staged in shared memory.
// A reduction can also be split across blocks: `k:g.x*4096,t.x*256` gives
// each block of grid axis x 4096 consecutive values of k, over which its
// 256 threads stride and combine, and blocks add their results atomically.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_SCHEDULE_H
#define LOOPY_SCHEDULE_SCHEDULE_H

#include "loopy/IR/Kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace loopy {

enum class Axis { X = 0, Y = 1, Z = 2 };
char axisLetter(Axis A);

/// How one index of a statement runs.
struct IndexMap {
  enum class Kind {
    Seq,   // a sequential loop in every thread
    Tiled, // reduction: sequential tiles of Tile, the tile loop unrolled
    Grid,  // output: blocks on grid axis Ax, Threads threads on thread axis
           // Ax, Ilp outputs per thread held in registers
    Block, // reduction: Threads threads of a block on thread axis Ax
           // cooperate and combine their partial results; with Chunk > 0
           // also split across the blocks of grid axis Ax, Chunk values
           // per block, whose results are added atomically
  };
  unsigned Index = 0; // position in Kernel::IndexNames
  Kind K = Kind::Seq;
  Axis Ax = Axis::X;
  long Threads = 1;
  long Ilp = 1;
  /// Grid with Ilp > 1: a thread's outputs come in runs of Run adjacent
  /// ones; consecutive threads' runs are adjacent, and a thread's runs
  /// Threads * Run apart. 0 (or Ilp): all of them adjacent ("ilp8"); 1:
  /// Threads apart, so that consecutive threads touch consecutive elements
  /// ("ilp8s"); 4: two runs of four ("ilp8s4"), each a vector that a warp
  /// reads from shared memory without bank conflicts.
  long Run = 0;
  long Tile = 1;
  /// Block: values of the index per block when split across blocks (a
  /// multiple of Threads), 0 when one block runs the whole reduction.
  long Chunk = 0;
  /// Seq reduction index before the tiled one: a loop of the whole block
  /// around the tiles ("seq,outer"), so that each tile stages one value of
  /// it, rather than a loop in each thread inside every tile. With Tile > 1
  /// ("seq*8,outer") the block's loop runs over tiles of Tile values, each
  /// thread loops over the tile's values inside every tiled-reduction tile,
  /// and each stage holds Tile values of it: a reduction tile over two
  /// indices.
  bool Outer = false;

  /// Grid under "mma:RxC": the warps of the block along this index
  /// (Schedule::MmaWarps), each a tile of Threads * Ilp outputs.
  long Warps = 1;

  /// Outputs of one block along this index (Grid).
  long blockTile() const { return Warps * Threads * Ilp; }
  /// Adjacent outputs in each run of a thread's (Grid).
  long run() const { return Run > 0 && Run < Ilp ? Run : Ilp; }
  /// The register tile's suffix in a schedule string: "", "s" or "sR".
  std::string runSuffix() const;
};

struct Schedule {
  /// One entry per index of the statement. Sequential and tiled loops nest
  /// in this order.
  std::vector<IndexMap> Maps;
  /// Positions in Statement::Reads of the reads staged in shared memory.
  std::vector<unsigned> Prefetch;
  /// With staged reads in a tiled reduction: each tile's global loads are
  /// issued into registers before the previous tile is computed, so their
  /// latency overlaps that work ("pipelined" in the string).
  bool Pipelined = false;
  /// Pipelined with two buffers per stage: each thread copies its part of
  /// the next tile straight into the idle buffer with asynchronous copies
  /// (cp.async on sm_80 and later; plain copies elsewhere and in OpenCL),
  /// waited for before the barrier that starts the tile, instead of
  /// holding it in registers ("async" in the string).
  bool Async = false;
  /// With Async: the buffers of each stage ("async" is 2, "async:N" N up
  /// to 8). The asynchronous copies run N - 1 tiles ahead of the one
  /// computed, each tile's copies one group, of which the wait before a
  /// tile's barrier lets the later tiles' stay in flight; stages loaded
  /// through registers still run one tile ahead.
  long Buffers = 2;
  /// Where not 0: the blocks of the kernel that each multiprocessor should
  /// hold at once, which the CUDA code asks of the compiler with
  /// __launch_bounds__(threads, MinBlocks), capping the registers of a
  /// thread ("minblocks:N" in the string). The tuner tries one more block
  /// than the registers allowed on its best variants.
  long MinBlocks = 0;
  /// The reduction runs on the tensor cores: each warp computes its
  /// register tile with mma.sync m16n8k16 instructions, whose fragments
  /// fix the threads' shape ("mma" in the string; Schedule/Mma.h).
  bool Mma = false;
  /// With Mma: the block's warps along the rows (the output index on y)
  /// and along the columns (on x), numbered by thread axis z ("mma:2x4";
  /// "mma" is one warp). The grid maps' Warps repeat them.
  long MmaWarps[2] = {1, 1};
  /// With Mma on f32 operands: the instructions round them to tf32 (10
  /// bits of mantissa) before multiplying ("tf32" in the string), which
  /// the schedule must say; the planner offers it only where asked
  /// (PlannerOptions::AllowTf32).
  bool Tf32 = false;

  const IndexMap *find(unsigned Index) const;
  const IndexMap *tiledReduction() const;
  const IndexMap *blockReduction() const;
  /// Threads of a block along each axis.
  long threads(Axis A) const;
  long totalThreads() const;
  /// Registers of outputs each thread holds.
  long registerOutputs() const;

  /// The stable schedule string.
  std::string str(const Kernel &K, const Statement &S) const;
};

/// Parses a schedule string for statement \p S of \p K; nullopt with
/// \p Error set if it is malformed or does not fit the statement.
std::optional<Schedule> parseSchedule(const std::string &Text, const Kernel &K,
                                      const Statement &S, std::string &Error);

/// Checks the structural rules every schedule obeys (each statement index
/// mapped once, output indices only on Grid/Seq, axes used once, ...);
/// returns an empty string or the first rule broken.
std::string validateSchedule(const Schedule &Sch, const Kernel &K,
                             const Statement &S);

/// A name for read \p ReadPos of \p S in schedule strings: the array's name,
/// with "@N" when the statement reads that array more than once.
std::string readName(const Kernel &K, const Statement &S, unsigned ReadPos);

} // namespace loopy

#endif
