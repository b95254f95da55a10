//===- Compare.h - Checking a run's outputs against the reference -*- C++ -*-===//
//
// Which elements a kernel writes, and whether a candidate run (a generated
// variant on the GPU or on PoCL) wrote all of them with values close
// enough to the reference interpreter's.
//
// Float arrays are compared by their relative L2 error over the written
// elements,
//     ||cand - ref||_2 / ||ref||_2  <=  tol,
//     tol = 16 * eps * (1 + sqrt(R)) * Scale,
// where eps is the machine epsilon of the type (2^-23 for f32, 2^-52 for
// f64) and R the largest number of terms any written element reduces
// (the product of the extents of the writing statement's reduction
// indices, 1 without a reduction): rounding in a reduction of R terms
// grows like sqrt(R) for data of random sign. f16 and bf16 values are
// computed in f32 and rounded to their type after each operation (and a
// reduction once, at its end), so there
//     tol = (2 * eps + 16 * eps_f32 * (1 + sqrt(R))) * Scale,
// with eps 2^-10 for f16 and 2^-7 for bf16. Each element must also
// satisfy |cand - ref| <= 4 * tol * (|ref| + rms(ref)), which catches a
// single wrong element in a large array. Integer arrays must match
// exactly. Always an error: a written element that is still poisoned, a
// NaN or infinity where the reference is finite (where the reference is
// not finite, the candidate must be the same NaN or infinity), and, for
// 'inout' arrays, a change to an element the kernel does not write.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_INTERP_COMPARE_H
#define LOOPY_INTERP_COMPARE_H

#include "loopy/Interp/HostData.h"

#include <map>
#include <string>
#include <vector>

namespace loopy {

/// Per 'out' and 'inout' array name: one flag per buffer element, true
/// for the elements some statement writes (the images of the statements'
/// write relations at the parameter values, enumerated by isl).
using WrittenMask = std::map<std::string, std::vector<bool>>;
WrittenMask writtenMask(const Kernel &K, const HostData &D);

/// The largest number of terms one element written by statement \p S
/// combines: the product over its reduction indices of their extents in
/// its domain at \p Params (1 without reductions, 0 for an empty domain).
double reductionLength(const Statement &S, const ParamValues &Params);

/// The bound on the relative L2 error of a float array of type \p T whose
/// elements reduce up to \p R terms (see the file comment); 0 for integers.
/// \p Tf32: f32 products may have had their operands rounded to tf32
/// (Schedule::Tf32), 10 bits of mantissa.
double tolerance(DType T, double R, bool Tf32 = false);

struct CompareOptions {
  /// Multiplies every float tolerance.
  double ToleranceScale = 1.0;
  /// f32 arrays get the bound of products of tf32 operands.
  bool Tf32 = false;
};

/// The verdict on one output array.
struct ArrayComparison {
  std::string Array;
  /// Elements the kernel writes.
  size_t Written = 0;
  /// Relative L2 error over the written elements (0 for integers).
  double RelativeL2 = 0;
  double Tolerance = 0;
  bool Ok = true;
  /// Why not, naming the first bad element (in row-major order of the
  /// subscripts) and its values; empty when Ok.
  std::string Message;
};

struct Comparison {
  bool Ok = true;
  /// One entry per 'out' and 'inout' array, in argument order.
  std::vector<ArrayComparison> Arrays;
  /// The messages of the failing arrays, one per line; empty when Ok.
  std::string message() const;
};

/// Compares the 'out' and 'inout' arrays of \p Candidate with those of
/// \p Reference (interpret's result on the same inputs; both built for
/// \p K at the same parameter values).
Comparison compareOutputs(const Kernel &K, const HostData &Reference,
                          const HostData &Candidate,
                          const CompareOptions &Opts = {});

/// The same with the written elements given: \p Mask is writtenMask(K,
/// Reference), computed once for many candidates of a large kernel.
Comparison compareOutputs(const Kernel &K, const HostData &Reference,
                          const HostData &Candidate, const WrittenMask &Mask,
                          const CompareOptions &Opts = {});

/// Compares, in \p Candidate, the elements statement \p StmtIdx writes at
/// \p OutputPoints (values of its output indices, as interpretPoints takes
/// them) with the values interpretPoints computes from \p Inputs, the data
/// the candidate run started from. The criteria are compareOutputs' on
/// those elements alone (the L2 norms and rms over the sample); points
/// where the statement writes nothing are skipped. Elements are named by
/// their output point. This checks kernels too large to interpret whole,
/// such as a 4096^3 matmul on a few hundred sampled outputs.
/// The interpreter's values at sampled output points of one statement and
/// the offsets of the elements they are written to: computed once, then
/// compared with many candidates.
struct PointReference {
  unsigned Stmt = 0;
  std::vector<std::vector<long>> Points;
  std::vector<double> Values; // NaN where the statement writes nothing
  std::vector<long> Offsets;  // -1 there
  double ReductionLength = 0;
};

PointReference pointReference(const Kernel &K, const HostData &Inputs,
                              unsigned StmtIdx,
                              std::vector<std::vector<long>> OutputPoints);

/// comparePoints against a reference computed before.
ArrayComparison comparePoints(const Kernel &K, const PointReference &Ref,
                              const HostData &Candidate,
                              const CompareOptions &Opts = {});

ArrayComparison comparePoints(const Kernel &K, const HostData &Inputs,
                              const HostData &Candidate, unsigned StmtIdx,
                              const std::vector<std::vector<long>> &OutputPoints,
                              const CompareOptions &Opts = {});

} // namespace loopy

#endif
