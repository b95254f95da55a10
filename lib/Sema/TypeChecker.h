//===- TypeChecker.h - Checking one statement -------------------*- C++ -*-===//
//
// StatementChecker takes one parsed statement of a kernel whose arguments
// and domain are built, and produces the IR Statement: typed right-hand
// side, output and reduction indices, iteration domain, access relations.
// TypeChecker.cpp holds the entry point, names, operators and types;
// TypeCheckCalls.cpp reductions and calls; TypeCheckAccess.cpp the array
// accesses and the statement's domain.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_SEMA_TYPECHECKER_H
#define LOOPY_LIB_SEMA_TYPECHECKER_H

#include "SemaInternal.h"
#include "loopy/IR/Kernel.h"

namespace loopy::sema {

/// \p S with each run of white space made one blank: how a piece of the
/// source is quoted in the IR and in messages.
std::string normalizedSpelling(std::string_view S);

/// The first integer literal of the untyped value \p E that the integer
/// type \p To cannot hold, with whether it is negated (-128 fits in i8);
/// null where there is none.
const Expr *literalOutside(const Expr &E, DType To, bool *Negated);

class StatementChecker {
public:
  StatementChecker(const Kernel &K, const SourceManager &SM,
                   DiagnosticEngine &Diags, isl::ctx Ctx);

  /// Fills \p St (whose Name and Loc are set); false on error.
  bool check(const ast::Stmt &S, Statement &St);

private:
  /// A checked expression. Untyped: built from literals only, so its type
  /// is still open (2 + 3 can become f32 or i64).
  struct Typed {
    ExprPtr E;
    bool Untyped = false;
  };
  struct PendingAccess {
    unsigned Arg;
    SourceRange Loc;
    isl::map Fn; // on the kernel's whole domain space
  };

  std::optional<Typed> value(const ast::Expr &E);
  std::optional<Typed> name(const ast::Expr &E);
  std::optional<Typed> subscript(const ast::Expr &E);
  std::optional<Typed> call(const ast::Expr &E);
  std::optional<Typed> reduction(const ast::Expr &E, ReduceOp Op);
  std::optional<Typed> unary(const ast::Expr &E);
  std::optional<Typed> binary(const ast::Expr &E);

  /// Builds the access function of \p E (a Subscript) and checks that every
  /// index it uses is an output index or bound by a reduction.
  std::optional<isl::map> accessFunction(const ast::Expr &E,
                                         const Argument &A, bool IsWrite);
  bool checkIndexUse(unsigned Pos, SourceRange Loc);
  /// Fills \p St's indices, domain and access relations: the kernel's
  /// domain and \p WriteFn (the write of \p L) and the reads projected onto
  /// the indices the statement uses.
  void finishStatement(const ast::Expr &L, const isl::map &WriteFn,
                       Statement &St);
  /// Gives an untyped expression the type \p T; false if it cannot take it.
  bool retype(Typed &T, DType To, SourceRange Loc);
  /// Makes both operands one type; reports a mismatch at \p OpLoc.
  bool unify(Typed &L, Typed &R, SourceRange OpLoc, const char *What);
  bool isReductionIndexList(const ast::Expr &E) const;
  std::optional<unsigned> indexPosition(const std::string &Name) const;
  std::vector<std::string> visibleNames() const;
  /// Names of the array arguments: the candidates for a misspelt array.
  std::vector<std::string> arrayNames() const;

  const Kernel &K;
  const SourceManager &SM;
  DiagnosticEngine &Diags;
  isl::ctx Ctx;
  AffScope Scope; // parameters and every domain index
  const Argument *Target = nullptr;
  std::set<unsigned> Outputs;
  std::vector<unsigned> Bound; // reduction indices enclosing the current node
  std::set<unsigned> Reduced;
  std::vector<PendingAccess> Reads;
  struct EnclosingReduction {
    const ast::Expr *E;
    ReduceOp Op;
    std::vector<const ast::Expr *> Names;
  };
  /// The reductions whose body is being checked, outermost first.
  std::vector<EnclosingReduction> Enclosing;
  unsigned Errors = 0;
};

} // namespace loopy::sema

#endif
