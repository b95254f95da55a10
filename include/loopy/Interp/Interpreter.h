//===- Interpreter.h - The reference semantics of the Kernel IR -*- C++ -*-===//
//
// Runs a checked kernel on host buffers. Every generated variant must
// produce what this produces, up to the rounding that the order of a
// reduction's terms changes.
//
// Iteration comes from isl: each statement's domain, with the parameters
// fixed to their values, is turned into loops by isl's AST generator, and
// each reduction runs over the loops isl builds for its indices with the
// enclosing indices as parameters. Subscripts are the access relations
// composed with the array's strides, converted to expressions by isl.
//
// Arithmetic follows the dtypes: f32 operations are done in float and f64
// ones in double; i32 and i64 operations wrap around; integer division
// and remainder truncate toward zero as in C, and give 0 for a zero
// divisor. Casts from floats to integers truncate toward zero and
// saturate, NaN giving 0. Elementwise max/min of floats ignore a NaN
// operand (as fmax/fmin). A reduction accumulates in double for float
// types and in wrapping int64 for integer types, and its result is
// converted to its type once, at the end; max/min reductions start from
// -inf/+inf (the integer limits for integers).
//
// A statement writes an element for each point of its domain projected
// onto its output indices, and nothing elsewhere: an output point with an
// empty reduction range does not exist, so it writes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_INTERP_INTERPRETER_H
#define LOOPY_INTERP_INTERPRETER_H

#include "loopy/Interp/HostData.h"

#include <vector>

namespace loopy {

/// Runs every statement of \p K, in order, on \p D, which makeHostData
/// built for \p K: reads the 'in' and 'inout' arrays, scalars and
/// parameters of \p D and writes the elements the statements write into
/// its 'out' and 'inout' arrays. Other elements are left as they are.
void interpret(const Kernel &K, HostData &D);

/// The values statement \p StmtIdx of \p K writes at the output points
/// \p OutputPoints, each the values of Statement::OutputIndices in order,
/// computed from \p D without writing it, rounded to the written array's
/// type and returned as double. Only the reductions of the given points are
/// evaluated, so a sample of a large kernel's outputs is cheap. A point
/// where the statement writes nothing (outside its domain) gives NaN.
std::vector<double>
interpretPoints(const Kernel &K, const HostData &D, unsigned StmtIdx,
                const std::vector<std::vector<long>> &OutputPoints);

/// Element offsets, in the written array, of the elements statement
/// \p StmtIdx writes at \p OutputPoints; -1 where it writes nothing. With
/// interpretPoints, this checks a candidate's buffer at sampled points.
std::vector<long>
writtenOffsets(const Kernel &K, const HostData &D, unsigned StmtIdx,
               const std::vector<std::vector<long>> &OutputPoints);

/// Up to \p Count output points of statement \p StmtIdx, drawn uniformly
/// from all its output points by a generator seeded with \p Seed, in
/// iteration order. All of them when there are no more than \p Count.
std::vector<std::vector<long>> sampleOutputPoints(const Kernel &K,
                                                  const HostData &D,
                                                  unsigned StmtIdx,
                                                  size_t Count, uint64_t Seed);

} // namespace loopy

#endif
