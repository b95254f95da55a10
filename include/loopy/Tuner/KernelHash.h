//===- KernelHash.h - Content hash of a checked kernel ----------*- C++ -*-===//
//
// The tuning database finds a kernel's result by a SHA-256 of its canonical
// text: the IR printer's text (`--emit=ir`: name, parameters, arguments with
// dtypes, modes, shapes and layouts, assumptions, domain, and per statement
// its indices, iteration domain and access relations in isl notation),
// with each statement's right-hand side as a typed expression tree in place
// of its source spelling. So white space and comments in the .loop text do
// not change the hash.
//
// Values fixed with -D are not part of the hash; the database keys them
// separately (fixedParamsText). Sema folds fixed values into every isl set
// of the kernel (the domain { [i] : 0 <= i < n } becomes
// { [i] : n = 64 and 0 <= i <= 63 }), and the parametric sets cannot be
// recovered from the folded ones, so the hash is taken of the kernel built
// without -D values, which CheckedSource::parametricKernel (Compile.h)
// gives. Nothing here parses or checks: the hash is of the checked kernel
// it is handed.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TUNER_KERNELHASH_H
#define LOOPY_TUNER_KERNELHASH_H

#include "loopy/IR/Kernel.h"

#include <map>
#include <string>

namespace loopy {

/// The canonical text of \p K that kernelHash digests. Throws
/// std::invalid_argument if \p K was built with -D values (K.Fixed is not
/// empty).
std::string canonicalKernelText(const Kernel &K);

/// SHA-256 (hex) of canonicalKernelText(K). Same preconditions.
std::string kernelHash(const Kernel &K);

/// Fixed parameter values as the database keys them: "m=4096,n=4096",
/// sorted by name; "" for none.
std::string fixedParamsText(const std::map<std::string, long> &Fixed);

} // namespace loopy

#endif
