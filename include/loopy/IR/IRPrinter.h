//===- IRPrinter.h - Stable textual form of the Kernel IR -------*- C++ -*-===//
//
// The text printed by `loopyc --emit=ir`: arguments, context, domain, and per
// statement its indices, iteration domain and access relations in isl
// notation. Golden tests check it, so its shape changes only on purpose.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_IR_IRPRINTER_H
#define LOOPY_IR_IRPRINTER_H

#include "loopy/IR/Kernel.h"

#include <iosfwd>
#include <string>

namespace loopy {

void printKernel(std::ostream &OS, const Kernel &K);
/// An expression in .loop syntax, with the parentheses it needs.
std::string printExpr(const Kernel &K, const Expr &E);
/// An isl object's text.
std::string islText(const isl::aff &A);

} // namespace loopy

#endif
