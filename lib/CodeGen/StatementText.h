//===- StatementText.h - The C text of a statement instance -----*- C++ -*-===//
//
// The statement-text step of lowering: at one instance of a piece in an isl
// AST (its build, and the piece's tuple as a function of the loop
// iterators), instanceText prints the piece's lines -- accumulators set to
// the reduction's identity (Init), the reduction's update (Update), the
// whole statement (Compute) or the store of the result (Write) -- with
// every subscript printed by isl from the access relations: global
// elements through the addressing, staged reads from their shared buffer.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_CODEGEN_STATEMENTTEXT_H
#define LOOPY_LIB_CODEGEN_STATEMENTTEXT_H

#include "CodeGenState.h"

#include <isl/cpp.h>

#include <string>

namespace loopy {

/// The lines of the instance of piece tuple \p Tuple at \p Build, where
/// \p Iter { [schedule] -> Tuple[...] } gives the piece's coordinates.
Instance instanceText(CodeGenState &G, const isl::ast_build &Build,
                      const std::string &Tuple, isl::pw_multi_aff Iter);

/// The C text of read \p Read of the statement's update at the point of
/// its tuple that \p Iter { [schedule] -> Update[...] } gives: the element
/// of its shared buffer where the read is staged, else of its array.
std::string updateReadText(CodeGenState &G, unsigned Read,
                           const isl::ast_build &Build,
                           const isl::pw_multi_aff &Iter);

/// The same at a point that may lie past the domain (a fragment of a
/// partial tile under mma, Schedule/Mma.h): the read's affine form on the
/// whole space, which for a staged read falls in its zero-filled box.
std::string fragmentReadText(CodeGenState &G, unsigned Read,
                             const isl::ast_build &Build,
                             const isl::pw_multi_aff &Iter);

/// The identity of \p Op on \p T as C text (0 for sums, -inf for max, ...).
std::string identity(ReduceOp Op, DType T);
/// Zero of type \p T as C text.
std::string zeroOf(DType T);

} // namespace loopy

#endif
