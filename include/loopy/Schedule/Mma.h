//===- Mma.h - Statements the tensor cores compute --------------*- C++ -*-===//
//
// A sum of products of two 16-bit float operands, each widened to f32,
//
//   c[i, j] = alpha * sum(k, f32(a[i, k]) * f32(b[k, j])) + ...
//
// is what a warp's mma.sync m16n8k16 instruction computes: a 16 x 8 tile
// of f32 sums over 16 values of k, from a 16 x 16 fragment of one operand
// and a 16 x 8 fragment of the other, spread over the warp's 32 lanes.
// An "mma" schedule maps such a statement so that each thread's register
// tile is its part of the accumulator fragments:
//
//   row index (y):    t.y*8,  ilp(2M)s    rows  gid + 8 * u
//   column index (x): t.x*4,  ilp(2N)s2   cols  2 * tig + 8 * (u / 2) + u % 2
//   reduced index:    seq*T, T a multiple of 16
//
// with gid = ty, tig = tx, and lane = tx + 4 * ty: one warp per block
// computing M x N fragments of 16 x 8. Init and Write stay the ordinary
// per-thread code; the update of each reduction tile becomes the
// fragments' loads and the instructions (CodeGen/MatrixCode.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SCHEDULE_MMA_H
#define LOOPY_SCHEDULE_MMA_H

#include "loopy/IR/Kernel.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Schedule/Schedule.h"

#include <optional>
#include <string>

namespace loopy {

/// The parts of a statement that the tensor cores can compute.
struct MmaShape {
  /// The reduction (a sum over Red) and its two operands' reads, in the
  /// order of the product.
  const Expr *Reduce = nullptr;
  unsigned Red = 0;
  unsigned Read[2] = {0, 0};
  /// The output index each read follows (kernel index positions).
  unsigned Follows[2] = {0, 0};
  /// The operands' type: F16 or BF16.
  DType Type = DType::F16;

  /// The read that follows output index \p Index.
  unsigned readFollowing(unsigned Index) const {
    return Follows[0] == Index ? Read[0] : Read[1];
  }
};

/// The shape of \p S where the tensor cores can compute it: one write over
/// two output indices, one sum over one reduced index whose body is
/// f32(x) * f32(y), x and y reads of f16 (or both of bf16) arrays, each
/// following one output index and the reduced one, and a domain that is
/// the product of its outputs' and its reduction's ranges. Otherwise
/// nothing, and \p Why says what breaks the form.
std::optional<MmaShape> mmaShape(const Kernel &K, const Statement &S,
                                 std::string &Why);

/// The rule an "mma" schedule obeys beyond every schedule's (an empty
/// string, or the rule broken): the statement's shape, the threads and
/// register tiles of the fragments, a reduction tile of 16s.
std::string mmaScheduleRule(const Schedule &Sch, const Kernel &K,
                            const Statement &S);

/// The rule an "mma" schedule's tiles obey once mapped (an empty string,
/// or the rule broken): every tile of \p M's blocks and reduction that
/// meets the domain lies wholly in it, for every value of the sizes the
/// kernel allows, as the instructions read whole fragments and have no
/// guards. isl decides; symbolic sizes pass only where the context makes
/// them multiples of the tiles.
std::string mmaTileRule(const StatementMapping &M);

} // namespace loopy

#endif
