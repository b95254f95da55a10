//===- CopyKernel.h - A checked kernel in another isl context ---*- C++ -*-===//
//
// An isl context belongs to one thread, and a Kernel's sets and maps to its
// context. Workers that lower variants in parallel each take a copy of the
// checked kernel in a context of their own: every isl object is printed in
// isl's notation and read back into the new context, and everything else
// (names, locations, the expression trees) is copied as it is. Nothing is
// parsed or checked again. The copy's sets are equal to the original's;
// their text may differ where isl's reader leaves out a constraint that the
// others imply (n > 0 beside 0 <= i < n), which the AST generator, given the
// same context, does not see: lowering a copy prints the same code, which
// the unit tests and loopyc's -j test check.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_COMPILE_COPYKERNEL_H
#define LOOPY_COMPILE_COPYKERNEL_H

#include "loopy/IR/Kernel.h"

#include <isl/cpp.h>

#include <string>
#include <vector>

namespace loopy {

/// A deep copy of \p E.
ExprPtr copyExpr(const Expr &E);

/// \p K with its isl objects as text, taken on the thread that owns \p K's
/// context. Any thread may then make copies from it at once: instantiate
/// reads \p K's other fields only, which nobody changes meanwhile. \p K must
/// outlive the snapshot.
class KernelSnapshot {
public:
  explicit KernelSnapshot(const Kernel &K);
  /// A deep copy of the kernel whose isl objects belong to \p Ctx.
  Kernel instantiate(isl::ctx Ctx) const;

private:
  const Kernel &K;
  /// Every isl object of K in the order instantiate reads them.
  std::vector<std::string> Texts;
};

/// A deep copy of \p K whose isl objects belong to \p Ctx.
Kernel copyKernel(const Kernel &K, isl::ctx Ctx);

} // namespace loopy

#endif
