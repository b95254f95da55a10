//===- Mma.h - Statements the tensor cores compute --------------*- C++ -*-===//
//
// A sum of products of two 16-bit float operands, each widened to f32,
//
//   c[i, j] = alpha * sum(k, f32(a[i, k]) * f32(b[k, j])) + ...
//
// is what a warp's mma.sync m16n8k16 instruction computes: a 16 x 8 tile
// of f32 sums over 16 values of k, from a 16 x 16 fragment of one operand
// and a 16 x 8 fragment of the other, spread over the warp's 32 lanes.
// A sum of products of two f64 operands is what the f64 m16n8k16
// computes, in f64; of two f32 operands, what m16n8k8 computes on their
// values rounded to tf32, where the schedule says so (MmaInstr). An "mma"
// schedule maps such a statement so that each thread's register tile is
// its part of the accumulator fragments:
//
//   row index (y):    t.y*8,  ilp(2M)s    rows  gid + 8 * u
//   column index (x): t.x*4,  ilp(2N)s2   cols  2 * tig + 8 * (u / 2) + u % 2
//   reduced index:    seq*T, T a multiple of the instruction's k
//
// with gid = ty, tig = tx, and lane = tx + 4 * ty: one warp per block
// computing M x N fragments of 16 x 8. Further output indices that
// neither operand follows alone (a batch: c[e, i, j] = sum(k, a[e, i, k]
// * b[k, j])) take one value per block, on grid axis z or in a loop of
// the block. Init and Write stay the ordinary
// per-thread code; the update of each reduction tile becomes the
// fragments' loads and the instructions (CodeGen/MatrixCode.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_MMA_H
#define LOOPY_SCHEDULE_MMA_H

#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Schedule/Schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace loopy {

/// A warp's matrix instruction: a 16 x 8 tile of sums over K values of
/// the reduced index, whose operands' registers each hold PerReg values
/// of k. A lane holds rows gid and gid + 8 of the first operand's
/// fragment, register R at row gid + 8 * (R % 2) and
/// k = PerReg * (tig + 4 * (R / 2)) (and the next PerReg - 1 values, in
/// the higher bits), row gid of the second's at k = PerReg * (tig + 4 * R),
/// and the four accumulators at rows gid + 8 * (Q / 2), columns
/// 2 * tig + Q % 2 (PTX ISA, "Matrix Fragments for mma.m16n8k16" and "for
/// mma.m16n8k8" with .tf32). The f64 instruction is sm_90's; before, the
/// prelude computes it as eight m8n8k4 ones, whose fragments are its own
/// registers' (Printer.cpp).
struct MmaInstr {
  long K = 16;
  /// Operand elements per register: 2 16-bit values, or one f32 or f64.
  long PerReg = 2;

  long regsA() const { return 16 * K / (32 * PerReg); }
  long regsB() const { return 8 * K / (32 * PerReg); }
};

/// The parts of a statement that the tensor cores can compute.
struct MmaShape {
  /// The reduction (a sum over Red) and its two operands' reads, in the
  /// order of the product.
  const Expr *Reduce = nullptr;
  unsigned Red = 0;
  unsigned Read[2] = {0, 0};
  /// The output index each read follows (kernel index positions), which
  /// the other does not read.
  unsigned Follows[2] = {0, 0};
  /// The other output indices: each block computes one value of them
  /// (on grid axis z, or in a loop of the block).
  std::vector<unsigned> Batch;
  /// The operands' type: F16, BF16, F32 (as tf32) or F64.
  DType Type = DType::F16;
  /// The instruction that computes it.
  MmaInstr Instr;

  /// The read that follows output index \p Index.
  unsigned readFollowing(unsigned Index) const {
    return Follows[0] == Index ? Read[0] : Read[1];
  }
};

/// The shapes of \p S that the tensor cores can compute: one write, one
/// sum over one reduced index whose body is f32(x) * f32(y), x and y reads
/// of f16 (or both of bf16) arrays, or an f64 (f32) sum of x * y, x and y
/// reads of f64 (f32) arrays, each following the reduced index and an
/// output index that the other does not read -- one shape for each such
/// pair of outputs, the other outputs a batch -- and a domain that is the
/// product of its outputs' and its reduction's ranges. None where the
/// statement breaks the form, and \p Why says how.
std::vector<MmaShape> mmaShapes(const Kernel &K, const Statement &S,
                                std::string &Why);

/// The shape that \p Sch computes (its outputs on y and x are the pair),
/// or without a schedule the first one; nothing where there is none.
std::optional<MmaShape> mmaShape(const Kernel &K, const Statement &S,
                                 std::string &Why,
                                 const Schedule *Sch = nullptr);

/// The rule an "mma" schedule obeys beyond every schedule's (an empty
/// string, or the rule broken): the statement's shape, the threads and
/// register tiles of the fragments, a reduction tile of the instruction's
/// k, tf32 exactly where the operands are f32.
std::string mmaScheduleRule(const Schedule &Sch, const Kernel &K,
                            const Statement &S);

/// The rule an "mma" schedule's tiles obey once mapped and staged (an
/// empty string, or the rule broken). The instructions read whole
/// fragments and have no guards: every tile of \p M's blocks and
/// reduction that meets the domain lies wholly in it, for every value of
/// the sizes the kernel allows, or both operands come from \p Stages,
/// zero-filled past the footprint (Stage::ZeroFill), whose boxes hold the
/// whole tiles' reads -- the products past the extents are then zero and
/// the guarded writes keep only the domain's outputs. isl decides.
std::string mmaTileRule(const StatementMapping &M,
                        const std::vector<Stage> &Stages);

} // namespace loopy

#endif
