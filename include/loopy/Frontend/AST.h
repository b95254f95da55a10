//===- AST.h - Syntax tree of the .loop language ----------------*- C++ -*-===//
//
// What the parser produces: the text's structure with source ranges, no
// meaning attached. Sema turns it into the Kernel IR.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_FRONTEND_AST_H
#define LOOPY_FRONTEND_AST_H

#include "loopy/Frontend/Token.h"

#include <memory>
#include <string>
#include <vector>

namespace loopy::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// The most levels an expression tree may have: each operator, call,
/// subscript and pair of parentheses adds one. The parser rejects deeper
/// expressions, so every later walk over an expression (type checking,
/// printing, lowering, interpreting) recurses at most this deep, whatever
/// the input's size: a few hundred bytes of stack per level in each walker,
/// far inside an 8 MB stack, and a worker thread's.
constexpr unsigned MaxExprDepth = 256;

struct Expr {
  enum class Kind {
    IntLit,    // 42
    FloatLit,  // 1.5, 2e-3
    Name,      // i, n, alpha
    Subscript, // a[i, k]  (Name + Args)
    Call,      // sqrt(x), sum(k, e)  (Name + Args)
    Unary,     // -x, !c  (Op + Args[0])
    Binary,    // x + y  (Op + Args[0..1])
    Tuple,     // (k, l): index lists of reductions
  };
  Kind K;
  SourceRange Range;
  std::string Name;      // Name, Subscript, Call; literal spelling for literals
  SourceRange NameRange; // the name alone (for Subscript and Call)
  TokenKind Op = TokenKind::Eof;
  SourceRange OpRange;
  std::vector<ExprPtr> Args;
  /// Range with the parentheses around the expression, if any: what an
  /// enclosing expression's range starts or ends with.
  SourceRange Outer;
  /// Levels of the tree rooted here, parentheses included (a leaf has 1).
  unsigned Depth = 1;

  Expr(Kind K, SourceRange R) : K(K), Range(R), Outer(R) {}
};

enum class ArgMode { In, Out, InOut };

struct TypeSpec {
  enum class Kind { Index, Scalar, Array };
  Kind K = Kind::Scalar;
  SourceRange Range;
  std::string DType; // f32, f64, i32, i64, f16, bf16
  SourceRange DTypeRange;
  ArgMode Mode = ArgMode::In;
  std::vector<ExprPtr> Shape;
  enum class Layout { RowMajor, ColMajor, Strides } Layout = Layout::RowMajor;
  SourceRange LayoutRange;
  std::vector<ExprPtr> Strides;
};

struct ParamDecl {
  std::string Name;
  SourceRange NameRange;
  TypeSpec Type;
};

struct Stmt {
  ExprPtr Lhs; // a Subscript
  ExprPtr Rhs;
  SourceRange Range;
};

struct KernelDecl {
  std::string Name;
  SourceRange NameRange;
  std::vector<ParamDecl> Params;
  SourceRange DomainKeyword;
  SourceRange Domain; // '{' ... '}' inclusive; invalid if absent
  std::vector<SourceRange> Assumptions; // raw isl constraint text
  std::vector<Stmt> Stmts;
  SourceRange Range;
  /// A syntax error left the parameter list or the domain incomplete, so
  /// names may be missing: Sema skips the kernel rather than report uses of
  /// them.
  bool Incomplete = false;
};

struct Module {
  std::vector<KernelDecl> Kernels;
};

} // namespace loopy::ast

#endif
