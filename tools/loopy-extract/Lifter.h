//===- Lifter.h - From a marked C loop nest to a LiftedKernel ---*- C++ -*-===//
//
// The lifter runs the marked code symbolically. Each loop body is a Frame
// holding the current values of the locations it stores to; a location the
// body leaves as old(L) + e becomes old(L) + sum(k, e) when the loop over k
// ends, and elements written with subscripts that use k become .loop
// statements. Anything outside the model is reported at its source
// location and ends the kernel with LiftFailed.
//
// Lifter.cpp holds the driver, the arguments and the checks across
// statements; LiftLoops.cpp the loop headers; LiftPragmas.cpp the shape and
// assume pragmas; LiftStmt.cpp the statements and frames; LiftExpr.cpp the
// values; LiftAccess.cpp the array elements, pointers and subscripts.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_LIFTER_H
#define LOOPY_EXTRACT_LIFTER_H

#include "Diag.h"
#include "LiftedKernel.h"
#include "Targets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

#include <isl/cpp.h>

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <set>

namespace loopy::extract {

/// The current value of a location within one frame.
struct Slot {
  LExprPtr Value;
  /// Loops around the shallowest assignment in this frame; UINT_MAX if the
  /// frame has not assigned it.
  unsigned MinDepth = UINT_MAX;
  /// The first assignment in this frame, and the C text of its target.
  clang::SourceRange Range;
  std::string What;
  /// Carried into a loop from a variable that had no value yet.
  bool Undefined = false;
  /// A scalar that every iteration of the loop over LastLoop (the C name
  /// of its index) set anew: private to those iterations, with no value
  /// after the loop. LastAssigned is where it was set.
  std::string LastLoop;
  clang::SourceRange LastAssigned;
  /// Set by a statement that failed: its value is unknown, and what reads
  /// it fails without a message of its own (the error was reported).
  bool Poisoned = false;
};

/// The body of one loop (or the root block, with no loop).
struct Frame {
  std::optional<unsigned> Loop;
  std::map<const clang::VarDecl *, Slot> Scalars;
  /// Scalars this frame found in its parent, in declaration order.
  std::vector<const clang::VarDecl *> Inherited;
  std::vector<std::pair<LocKey, Slot>> Elements;
};

/// An array element named by a C lvalue: the array and one subscript per
/// level of its type (fewer for a sub-array).
struct ElementRef {
  unsigned Array = 0;
  std::vector<Poly> Levels;
};

/// Why tryPoly failed, and where it met products.
struct PolyInfo {
  std::string Why;
  const clang::Expr *At = nullptr;
  /// The expression has a polynomial form, but one that the kernel cannot
  /// use (its constants wrap or overflow): Why says so of At.
  bool BadConstant = false;
  /// The first product of two non-constant terms, and the first product of
  /// two loop indices.
  const clang::BinaryOperator *Product = nullptr;
  const clang::BinaryOperator *IndexProduct = nullptr;
};

/// Where a C assignment stores.
struct StoreTarget {
  const clang::VarDecl *Var = nullptr;
  LocKey Loc;
  DType Type = DType::F32;
  std::string Text;
};

class Lifter {
public:
  Lifter(const KernelRequest &Req, clang::ASTContext &Ctx, Reporter &R);
  /// Throws LiftFailed after reporting an error.
  LiftedKernel lift();
  /// Kernels that lift() split off the one it returns, to run after it
  /// in order (see splitOff).
  std::vector<LiftedKernel> &splitParts() { return SplitParts; }
  /// The loops of the nest, outermost first.
  const std::vector<const clang::ForStmt *> &loopStmts() const {
    return LoopStmts;
  }

private:
  /// True if \p S belongs to another part of a distributed nest.
  bool skipped(const clang::Stmt *S) const {
    return std::find(Req.Skip.begin(), Req.Skip.end(), S) != Req.Skip.end();
  }

  // LiftLoops.cpp: the nest and its loop headers.
  void collectLoops(const clang::Stmt *Block);
  void registerLoop(const clang::ForStmt *F);
  /// True if the loop \p F starts with `V = ...`.
  static bool assignsIndex(const clang::ForStmt *F, const clang::VarDecl *V);
  /// The first read of \p V in the kernel's function outside \p Except
  /// (and, if \p SkipIndexLoops, outside the loops that set \p V in their
  /// header), within \p Within if given; plain assignments to V do not
  /// read it.
  const clang::DeclRefExpr *readOutside(const clang::VarDecl *V,
                                        const clang::Stmt *Except,
                                        bool SkipIndexLoops,
                                        const clang::Stmt *Within = nullptr);
  /// The first read of \p V, on a path of the function's control flow
  /// from right after \p S (a loop: from its exit) without a plain
  /// assignment to V between: a read of the value V holds there. Null if
  /// none.
  const clang::DeclRefExpr *liveRead(const clang::VarDecl *V,
                                     const clang::Stmt *S);
  /// A loop index declared before its loop must be a local variable that
  /// nothing reads after the loop.
  void checkIndexDead(const clang::VarDecl *V, const clang::ForStmt *F);
  /// Function-scope scalars that the nest of a marked loop assigns and
  /// nothing outside it reads: locals of the kernel, private to it.
  void findPrivateScalars();
  /// For a marked loop inside other loops of its function: the ranges of
  /// their indices that the nest uses, added to K.Assumption, and their
  /// names in K.HostLoops.
  void assumeEnclosingLoops();
  /// True if the variables \p E reads are parameters of the kernel
  /// already or constants.
  bool usesKnownNames(const clang::Expr *E) const;
  void readLoopHeader(unsigned D);
  void splitBound(const clang::Expr *E, bool Upper, bool Strict,
                  const clang::VarDecl *Var, std::vector<Bound> &Out);
  /// The position in the nest of the loop whose index is \p V.
  std::optional<unsigned> loopOf(const clang::VarDecl *V) const;

  // Lifter.cpp: names, arguments, checks.
  std::string uniqueName(const std::string &CName);
  unsigned order(const clang::ValueDecl *D) const;
  bool isLocal(const clang::VarDecl *V) const { return Locals.count(V); }
  unsigned paramFor(const clang::VarDecl *V);
  unsigned scalarFor(const clang::VarDecl *V, DType T);
  unsigned arrayFor(const clang::VarDecl *V, clang::SourceRange Use);
  /// The extent of the outer level of array type \p T, if it has one.
  std::optional<Poly> extentFromType(const clang::QualType &T);
  /// Written arrays overlap no other array; an array written and read is
  /// accessed at one element per iteration, by its own statement only.
  void checkAliasing();
  void checkElementConflicts();
  /// Two statements that write one element: reported, naming the
  /// iterations, and whether isl and the values prove that they write the
  /// same value there (as a symmetric matrix's diagonal does).
  void checkDoubleWrites();
  /// Where the statement \p Stmt writes, with the same value, elements
  /// that an earlier statement writes at the iterations \p Both (as
  /// covariance's `cov[j][i] = cov[i][j]` on the diagonal), and one loop
  /// bound made strict leaves exactly those iterations out: moves the
  /// statement to a kernel of its own with that bound, to run after
  /// this one, and returns true.
  bool splitOff(size_t Stmt, const isl::set &Both);
  /// A statement that uses one reduction twice (correlation's
  /// `stddev <= eps ? 1.0 : stddev` after `stddev = sqrt(sum / n)`), which
  /// a .loop statement cannot: this kernel keeps that statement alone,
  /// storing the reduction in its element, and the kernel split off after
  /// it reads the element where the reduction was used.
  void splitRepeatedReductions();
  /// Each statement written in C at iterations where a loop inside runs
  /// zero times, for every value of the parameters: those iterations go
  /// to a kernel split off (emptyRangeKernel), to be ordered with this
  /// one by their dependences.
  void splitEmptyRanges();

  // LiftPragmas.cpp.
  /// Applies the kernel's shape and assume pragmas.
  void applyPragmas();
  /// A name in a pragma: a constant, or the parameter it names.
  Poly pragmaName(const PragmaToken &T, const char *Pragma);
  const clang::VarDecl *lookupIntegerVar(const std::string &Name,
                                         clang::SourceLocation Loc,
                                         const char *Pragma);

  // LiftStmt.cpp: statements and frames.
  void stmt(const clang::Stmt *S, bool LastInFunction = false);
  void declare(const clang::VarDecl *V);
  void exprStmt(const clang::Expr *E);
  void ifStmt(const clang::IfStmt *S);
  void forLoop(const clang::ForStmt *F);
  void leaveLoop(Frame Body);
  void finalizeRoot();
  /// After \p S failed: the scalars it declares or assigns have no value.
  void poisonTargets(const clang::Stmt *S);
  StoreTarget storeTarget(const clang::Expr *LHS);
  LExprPtr load(const StoreTarget &T, clang::SourceRange Use);
  void store(const StoreTarget &T, LExprPtr V, clang::SourceRange Range);
  static Slot &slot(Frame &F, const LocKey &L);
  static void assign(Slot &S, LExprPtr V, unsigned Depth,
                     clang::SourceRange Range, const std::string &What);
  LExprPtr readElement(const LocKey &L, DType T, clang::SourceRange Use);
  unsigned depth() const { return static_cast<unsigned>(Frames.size() - 1); }
  [[noreturn]] void notLifted(const clang::Stmt *S, const char *What,
                              const char *Why);

  // LiftExpr.cpp: values; LiftAccess.cpp: elements, pointers, subscripts.
  LExprPtr value(const clang::Expr *E);
  LExprPtr lvalueRead(const clang::Expr *E);
  LExprPtr call(const clang::CallExpr *C);
  /// c ? a : b, as select or, when c compares a and b, as max or min.
  LExprPtr conditional(const clang::ConditionalOperator *C);
  std::optional<LExprPtr> constant(const clang::Expr *E);
  LExprPtr symbolValue(unsigned Id, clang::QualType T);
  ElementRef element(const clang::Expr *E);
  ElementRef pointer(const clang::Expr *E);
  ElementRef pointerVar(const clang::VarDecl *V, const clang::Expr *Use);
  Poly subscript(const clang::Expr *E);
  /// Reports \p E if the subscript \p P it makes overflowed.
  void checkOffset(const Poly &P, const clang::Expr *E);
  /// The polynomial form of an integer expression of indices, parameters
  /// and constants; nullopt with I.Why and I.At set if it has none.
  std::optional<Poly> tryPoly(const clang::Expr *E, PolyInfo &I);
  /// As tryPoly, reporting `WHAT 'E' is not affine` on failure; products of
  /// two non-constant terms are refused unless \p AllowProducts.
  Poly poly(const clang::Expr *E, const char *What, bool AllowProducts);
  [[noreturn]] void exprNotLifted(const clang::Expr *E, const std::string &Why);
  /// Reports \p E if it is an assignment or an increment.
  void rejectSideEffects(const clang::Expr *E);
  /// Reports an access through a class, such as std::vector's operator[].
  [[noreturn]] void classAccess(const clang::Expr *E);
  /// \p E without parentheses, temporaries and conversions that change
  /// nothing but constness.
  static const clang::Expr *skipWrappers(const clang::Expr *E);
  std::optional<DType> dtypeOf(clang::QualType T) const;
  DType requireDType(clang::QualType T, const clang::Expr *E);
  /// True if \p A and \p B are the same expression, parentheses and
  /// implicit conversions aside.
  bool sameExpr(const clang::Expr *A, const clang::Expr *B) const;
  std::string text(clang::SourceRange R) const;
  std::string text(const clang::Stmt *S) const {
    return text(S->getSourceRange());
  }

  const KernelRequest &Req;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  Reporter &R;
  LiftedKernel K;

  std::vector<const clang::ForStmt *> LoopStmts;
  /// The start value of each loop's index.
  std::vector<const clang::Expr *> LoopStarts;
  std::map<const clang::ValueDecl *, unsigned> ParamIds, ScalarIds, ArrayIds;
  std::set<const clang::VarDecl *> Locals;
  std::map<const clang::VarDecl *, const clang::Expr *> PointerLocals;
  std::set<std::string> UsedNames;
  std::vector<Frame> Frames;
  /// The function's control flow graph, built by liveRead when first
  /// needed.
  std::unique_ptr<clang::CFG> Cfg;
  std::vector<Statement> Finals;
  std::vector<LiftedKernel> SplitParts;
  /// A statement of the nest failed (and was reported); the others are
  /// still lifted to report their errors too.
  bool Failed = false;
  /// A loop header failed: the domain lacks its bounds, so the checks on
  /// the domain are left out.
  bool HeaderFailed = false;
};

} // namespace loopy::extract

#endif
