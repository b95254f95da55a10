//===- Kernel.h - The Kernel IR ---------------------------------*- C++ -*-===//
//
// A checked kernel: its arguments, its parametric domain and assumptions as
// isl sets, and its statements with their iteration domains, index
// classification and access relations as isl maps. Everything later stages
// need about integer sets is here, computed by isl.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_IR_KERNEL_H
#define LOOPY_IR_KERNEL_H

#include "loopy/IR/Expr.h"

#include <isl/cpp.h>

#include <map>
#include <string>
#include <vector>

namespace loopy {

enum class ArgKind { Index, Scalar, Array };
enum class ArgMode { In, Out, InOut };
enum class Layout { RowMajor, ColMajor, Strided };

const char *argModeName(ArgMode M);

/// A kernel argument. Index arguments are the isl parameters of every set.
struct Argument {
  ArgKind Kind;
  std::string Name;
  SourceRange Loc;
  DType Type;
  ArgMode Mode = ArgMode::In;
  /// Array extents, one per dimension. { [] -> [extent] } on the parameters.
  std::vector<isl::aff> Shape;
  Layout Order = Layout::RowMajor;
  /// Element strides, one per dimension. { [] -> [stride] } on the parameters.
  std::vector<isl::aff> Strides;
  /// Position among the index parameters (Kind == Index only).
  unsigned ParamPos = 0;
  /// A temporary array the compiler made (Sema's splitReductions): one
  /// statement writes it and later ones read it. Whoever runs the kernel
  /// allocates it; its callers do not pass it.
  bool Internal = false;

  bool isArray() const { return Kind == ArgKind::Array; }
  unsigned rank() const { return Shape.size(); }
};

/// One array access of a statement.
struct Access {
  unsigned Arg;     // position in Kernel::Args
  SourceRange Loc;  // the subscripted expression, e.g. "a[i, k]"
  std::string Spelling; // its source text, white space folded
  /// { S[indices] -> A[subscripts] }, a function of the statement's indices.
  isl::map Relation;
};

struct Statement {
  std::string Name; // S0, S1, ...
  SourceRange Loc;
  /// Positions in Kernel::IndexNames of the indices the statement runs over,
  /// ascending; the statement's isl tuple has one dimension for each.
  std::vector<unsigned> Indices;
  std::vector<unsigned> OutputIndices;
  std::vector<unsigned> ReductionIndices;
  /// { S[indices] } : the kernel domain projected onto Indices, under the
  /// kernel's context.
  isl::set Domain;
  Access Write;
  std::vector<Access> Reads;
  ExprPtr Rhs;
  /// A statement that the planner made of several fused ones
  /// (Schedule/Fusion.h) writes more than Write: each further write with
  /// its right-hand side, whose reads are positions in Reads. Empty in a
  /// checked kernel.
  struct Output {
    Access Write;
    ExprPtr Rhs;
  };
  std::vector<Output> MoreOutputs;

  /// Position of kernel index \p Index in the statement's tuple, or -1 if
  /// the statement does not run over it.
  int tuplePos(unsigned Index) const;

  Statement() = default;
  Statement(Statement &&) noexcept = default;
  Statement &operator=(Statement &&) noexcept = default;
};

struct Kernel {
  std::string Name;
  SourceRange Loc;
  std::vector<Argument> Args;
  /// Names of the index parameters, in isl parameter order.
  std::vector<std::string> ParamNames;
  /// Values fixed on the command line (-D name=value).
  std::map<std::string, long> Fixed;
  /// { : assumptions and fixed values } on the parameters.
  isl::set Context;
  /// { [indices] } under Context.
  isl::set Domain;
  std::vector<std::string> IndexNames;
  std::vector<Statement> Stmts;

  const Argument *findArg(const std::string &Name) const;

  Kernel() = default;
  Kernel(Kernel &&) noexcept = default;
  Kernel &operator=(Kernel &&) noexcept = default;
};

} // namespace loopy

#endif
