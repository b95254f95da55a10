//===- Work.h - Counted operations and compulsory traffic -------*- C++ -*-===//
//
// The work a kernel does at given parameter values, from which the tuner
// reports a variant's GFLOP/s and GB/s. The counts describe the kernel,
// not a variant: every variant of it does the same work.
//
// Operations. Each node of a statement's right-hand side is evaluated once
// per point of the statement's domain projected onto the indices active
// there (the output indices, plus the indices of every reduction around
// the node), as the interpreter evaluates it; a node counts its own
// operations at each of those points:
//  - unary -, and binary +, -, *, /, %: 1;
//  - calls (sqrt, exp, abs, max, min, pow...): 1, except fma: 2, as the
//    multiply and the add it fuses;
//  - a reduction (sum, prod, max, min): 1 per term, for combining it into
//    the result;
//  - comparisons, logical operators, casts, selects, reads, constants: 0.
// Both arms of a select count, as predicated code computes both.
// Arithmetic on indices, parameters and integer constants alone (the
// subscripts, or a cast index) does not count: it is address arithmetic.
// Integer arithmetic on data counts like float arithmetic, so the "FLOPs"
// of an integer kernel are its integer operations.
// So matmul c[i,j] = sum(k, a[i,k] * b[k,j]) does 2nml operations and
// z[i] = a * x[i] + b * y[i] does 3n.
//
// Bytes. Compulsory traffic: every distinct element a kernel reads is read
// once and every distinct element it writes is written once, whatever
// caches a variant has. The elements are the union over statements of the
// images of each statement's domain under its read (or write) relations;
// an array both read and written counts in both.
//
// Nothing is enumerated point by point: the sets are counted by the
// interpreter's isl loop nests, which multiply trip counts wherever a
// loop's body does not depend on its iterator.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_INTERP_WORK_H
#define LOOPY_INTERP_WORK_H

#include "loopy/Interp/HostData.h"

namespace loopy {

struct KernelWork {
  /// Arithmetic operations (see the file comment).
  double Flops = 0;
  /// Distinct elements read, once each, times the element size.
  double BytesRead = 0;
  /// Distinct elements written, once each, times the element size.
  double BytesWritten = 0;
  double bytes() const { return BytesRead + BytesWritten; }
};

/// The work of \p K at \p Params, which gives every index parameter (a
/// Fixed one may be left out). Values outside the kernel's assumptions
/// leave its domains empty, so they count nothing. Throws
/// std::invalid_argument when a parameter has no value or contradicts a
/// Fixed one.
KernelWork countWork(const Kernel &K, const ParamValues &Params);

} // namespace loopy

#endif
