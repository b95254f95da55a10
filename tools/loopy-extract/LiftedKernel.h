//===- LiftedKernel.h - A loop nest lifted out of C/C++ ---------*- C++ -*-===//
//
// What the lifter makes of one marked function or loop nest: the loops with
// their bounds, the arguments (index parameters, scalars, arrays), and the
// statements as .loop value expressions. The shape analysis completes the
// arrays and the assumptions; the printer turns the whole into .loop text.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_LIFTEDKERNEL_H
#define LOOPY_EXTRACT_LIFTEDKERNEL_H

#include "LExpr.h"
#include "Poly.h"

#include "loopy/IR/Type.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ValueDecl;
} // namespace clang

namespace loopy::extract {

/// A domain index (a loop of the nest) or an index parameter (an integer
/// variable from outside the nest). Poly and LExpr refer to them by
/// position in LiftedKernel::Symbols.
struct Symbol {
  enum class Kind { Index, Param };
  Kind K;
  std::string Name;
  const clang::ValueDecl *Decl = nullptr;
  /// Position of the declaration, for the order of the kernel's arguments.
  unsigned Order = 0;
};

/// One bound of a loop index `i`: `E <= i` (`E < i` if strict) for a lower
/// bound, `i <= E` (`i < E`) for an upper bound.
struct Bound {
  Poly E;
  bool Strict = false;
};

/// A `for` loop of the nest. Loops are outermost first; loop d binds the
/// symbol Index, and its bounds use outer indices and parameters only.
struct Loop {
  unsigned Index = 0;
  std::vector<Bound> Lower, Upper;
  /// Distance between iterations; above 1, the index takes the values
  /// Origin + Step * e.
  long Step = 1;
  Poly Origin;
  /// The C loop counts down: its later iterations have smaller indices.
  bool Down = false;
  clang::SourceRange Header;
};

struct ScalarArg {
  std::string Name;
  const clang::ValueDecl *Decl = nullptr;
  DType Type = DType::F32;
  unsigned Order = 0;
};

/// An array argument: a pointer or array variable declared outside the nest.
struct ArrayArg {
  /// The .loop name, and the name in the C source for messages.
  std::string Name;
  std::string CName;
  const clang::ValueDecl *Decl = nullptr;
  unsigned Order = 0;
  DType Elem = DType::F32;
  /// Subscript levels of its C type: 1 for `float *`, 2 for `float (*)[m]`.
  unsigned Levels = 1;
  /// Extent of each level known from the C type (inner levels always; the
  /// outer one for a declared array such as `float a[n][m]`).
  std::vector<std::optional<Poly>> TypeExtents;
  /// Extents from `#pragma loopy shape`, if given.
  std::optional<std::vector<Poly>> PragmaShape;
  clang::SourceLocation PragmaLoc;
  /// `restrict`-qualified pointer, or an array object of its own (no pointer).
  bool Restrict = false;
  bool DistinctObject = false;
  bool Read = false, Written = false;

  /// Filled by the shape analysis: the .loop extents, and for a flat
  /// pointer viewed as a multi-dimensional array the strides that split its
  /// one subscript (outermost first; the innermost stride, 1, is implicit).
  std::vector<Poly> Shape;
  std::vector<Poly> Strides;
  /// Every access is to element 0 (`*r`): a 0-dimensional .loop array.
  bool ZeroDim = false;

  /// The .loop subscripts of an access with C subscripts \p Raw (one per
  /// level; none for `*p` when every access is a dereference).
  std::vector<Poly> coordinates(const std::vector<Poly> &Raw) const;
};

/// One .loop statement: Array[Subs] = Value.
struct Statement {
  unsigned Array = 0;
  std::vector<Poly> Subs;
  LExprPtr Value;
  /// Loops around the C assignment that produced the written value; the
  /// shallowest one where several did.
  unsigned WriteDepth = 0;
  clang::SourceRange Range;
  /// The C text of the element written, for messages.
  std::string What;
  /// The iterations of the loops around the write where a loop inside it
  /// runs zero times are written by a kernel split off this one
  /// (emptyRangeKernel), not by this statement.
  bool EmptySplit = false;
};

struct LiftedKernel {
  std::string Name;
  /// Where the kernel came from, for the comment above it, and its
  /// place in the C source: its pragma, or its function's name.
  std::string Origin;
  clang::SourceLocation Loc;
  /// The C indices of the loops around a marked loop, outermost first: the
  /// host runs the kernel once for each of their iterations.
  std::vector<std::string> HostLoops;
  /// For one of several nests of a time loop: which one it is.
  std::string HostNote;
  /// For one part of a distributed nest: which one it is.
  std::string PartNote;
  /// For a kernel that emptyRangeKernel split off: the C index of the
  /// loop that runs zero times at its iterations.
  std::string EmptyRange;
  std::vector<Symbol> Symbols;
  std::vector<Loop> Loops;
  std::vector<ScalarArg> Scalars;
  std::vector<ArrayArg> Arrays;
  std::vector<Statement> Stmts;
  /// isl constraints on the parameters under which the lifted kernel
  /// computes what the C code does; empty if none are needed.
  std::string Assumption;

  std::vector<std::string> symbolNames() const;
  /// "[n, m] -> { [i, j] : CONSTRAINTS }" where CONSTRAINTS are the bounds
  /// of the first \p NumLoops loops (all if omitted).
  std::string islDomain(std::optional<unsigned> NumLoops = std::nullopt) const;
  /// "[n, m] -> " with every parameter.
  std::string islParams() const;
  /// "0 <= i < n and 0 <= j <= i": the constraints of the first \p NumLoops
  /// loops, in .loop/isl syntax (true if there are none).
  std::string constraints(unsigned NumLoops) const;
};

} // namespace loopy::extract

#endif
