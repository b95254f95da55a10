//===- Targets.h - Which function or loop each pragma marks -----*- C++ -*-===//
//
// A `#pragma loopy kernel` marks the first declaration or statement that
// follows it, which must be a function definition or a `for` loop; the
// `#pragma loopy shape` and `assume` lines before the same target belong
// to its kernel.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_TARGETS_H
#define LOOPY_EXTRACT_TARGETS_H

#include "Diag.h"
#include "Pragmas.h"

#include <vector>

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace loopy::extract {

/// One marked function or loop nest, to be lifted into one kernel.
struct KernelRequest {
  /// The function that holds the nest (the marked one, for a function).
  const clang::FunctionDecl *Function = nullptr;
  /// The function body, or the marked `for` loop.
  const clang::Stmt *Root = nullptr;
  bool WholeFunction = false;
  /// From `kernel(NAME)`; empty to use the function's name.
  std::string Name;
  clang::SourceLocation PragmaLoc;
  /// A nest of a time loop that stays on the host: where the nest starts,
  /// and the comment that says which part of the loop's body it is.
  clang::SourceLocation NestLoc;
  std::string HostNote;
  /// The shape and assume pragmas of the kernel.
  std::vector<const LoopyPragma *> Shapes;
  /// One part of a distributed nest: the statements of the nest that
  /// belong to the other parts, which the lifter leaves out.
  std::vector<const clang::Stmt *> Skip;
  /// The parts of one distributed nest share a group number above 0 and
  /// are numbered in order from 0; Shared is the number of loops around
  /// the statements where this part left the previous one (the loops that
  /// were distributed), for each part after the first.
  unsigned DistGroup = 0;
  unsigned DistPart = 0;
  unsigned DistParts = 1;
  unsigned Shared = 0;
  /// The C indices of the loops that this part shares with the previous
  /// part, and where the outermost of them starts.
  std::vector<std::string> SharedNames;
  clang::SourceLocation SharedLoc;
  /// A kernel that the lifter split off the part before it.
  bool SplitOff = false;
  /// For a kernel split off where a loop inside a write runs zero times
  /// (emptyRangeKernel): the C index of that loop.
  std::string EmptyRange;
  /// The loops this part shares with the others (SharedNames) stay on the
  /// host, which runs every part once per iteration of them: a part
  /// overwrites an element in every iteration of those loops (a
  /// temporary such as doitgen's `sum[p]`), so they cannot be kernel
  /// loops. SharedDown says which of them count down.
  bool HostShared = false;
  std::vector<bool> SharedDown;
  /// One part of a nest whose innermost loop body was split by statement
  /// (see splitStatements): the loops around the split body, outermost
  /// first, which every part keeps. The parts run in the order that their
  /// dependences allow, which ExtractAction finds with isl, not
  /// necessarily in source order.
  std::vector<const clang::ForStmt *> StmtSplitLoops;
  /// For a nest whose innermost loop body splits by statement: its
  /// parts, lifted in its place where the nest does not lift whole.
  std::vector<KernelRequest> StmtSplit;
};

/// What the statement \p S stores to, where it is an assignment (compound
/// or not) or an increment or decrement: its left side or operand.
const clang::Expr *storedTo(const clang::Stmt *S);

/// Matches the pragmas of the main file to their targets, in source order.
/// Misplaced pragmas are reported and left out. A marked loop, or a marked
/// function whose body is one loop, that is a time loop (its index appears
/// in no stored-to location and no inner loop header, and its body holds
/// only loops: several, or one that does not use the index) stays on the
/// host: each nest of its body is a kernel of its own, in order. A nest
/// whose loop body holds several loops (or a function body that holds
/// several nests) is distributed: each loop, with the statements that go
/// with it, is a part of its own under copies of the loops around it
/// (see distributeNest).
std::vector<KernelRequest> matchPragmas(const std::vector<LoopyPragma> &Pragmas,
                                        clang::ASTContext &Ctx, Reporter &R);

} // namespace loopy::extract

#endif
