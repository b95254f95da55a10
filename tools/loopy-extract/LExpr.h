//===- LExpr.h - .loop value expressions built from C expressions -*- C++ -*-=//
//
// The right-hand sides of lifted statements, typed with loopy's dtypes.
// While the lifter runs they may hold Old placeholders: the value a
// location (a local variable or an array element) had when the current
// loop iteration began. Leaving a loop replaces every placeholder, either
// by the value from before the loop or, for an accumulation, by a
// reduction over the loop's index.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_LEXPR_H
#define LOOPY_EXTRACT_LEXPR_H

#include "Poly.h"

#include "loopy/IR/Type.h"

#include "clang/Basic/SourceLocation.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace loopy::extract {

/// A place the C code stores to: a local variable (Var) or the element
/// Subs of array argument Array.
struct LocKey {
  const void *Var = nullptr;
  unsigned Array = 0;
  std::vector<Poly> Subs;

  bool operator==(const LocKey &O) const {
    return Var == O.Var && (Var || (Array == O.Array && Subs == O.Subs));
  }
};

struct LExpr;
using LExprPtr = std::shared_ptr<const LExpr>;

struct LExpr {
  enum class Kind {
    Literal, // Text: the spelling
    Poly,    // P: an integer polynomial of indices and parameters (i64)
    Scalar,  // Id: a scalar argument
    Read,    // Id: an array argument, Subs: its C subscripts
    Unary,   // Text: "-" or "!"
    Binary,  // Text: the operator
    Call,    // Text: the .loop function
    Cast,    // to Type
    Select,  // Ops: condition, if true, if false
    Reduce,  // Text: sum, prod, max or min; RedIndices; Ops[0]
    Old,     // Loc: the value of Loc when the iteration began
    Inf,     // Text: "-" or "+"; infinity, allowed only as the start value
             // of a max (-) or min (+) accumulation
  };
  Kind K = Kind::Literal;
  DType Type = DType::F32;
  std::string Text;
  Poly P;
  unsigned Id = 0;
  std::vector<Poly> Subs;
  std::vector<LExprPtr> Ops;
  std::vector<unsigned> RedIndices;
  /// Reduce: loops around the shallowest accumulation that fed it.
  unsigned Depth = 0;
  /// Read: the access; Reduce: the first accumulation; Old: the first use.
  clang::SourceRange Range;
  /// Reduce: the C text of the accumulated location, for messages.
  std::string Target;
  LocKey Loc;
};

LExprPtr makeLiteral(std::string Spelling, DType T);
/// Minus (\p Negative) or plus infinity.
LExprPtr makeInf(bool Negative, DType T);
LExprPtr makePoly(Poly P);
LExprPtr makeScalar(unsigned Id, DType T);
LExprPtr makeRead(unsigned Array, std::vector<Poly> Subs, DType T,
                  clang::SourceRange Range);
LExprPtr makeUnary(std::string Op, LExprPtr E);
/// Comparisons and logical operators have type Bool, the others the type
/// of their operands (which must agree).
LExprPtr makeBinary(std::string Op, LExprPtr L, LExprPtr R);
LExprPtr makeCall(std::string Fn, std::vector<LExprPtr> Args, DType T);
LExprPtr makeSelect(LExprPtr C, LExprPtr T, LExprPtr F);
LExprPtr makeReduce(std::string Op, unsigned Index, LExprPtr Body,
                    unsigned Depth, clang::SourceRange Range,
                    std::string Target);
LExprPtr makeOld(LocKey L, DType T, clang::SourceRange Use = {});
/// \p E converted to \p T: nothing if it has that type already; a literal
/// takes the type in place; an index that C had narrowed to `int` on its
/// way to \p T is converted directly.
LExprPtr castTo(LExprPtr E, DType T);
/// \p E as a truth value: itself if it is one, `E != 0` otherwise.
LExprPtr truthValue(LExprPtr E);

bool isZeroLiteral(const LExprPtr &E);
bool isOneLiteral(const LExprPtr &E);

/// True if \p E holds an Old placeholder for which \p Pred holds.
bool containsOld(const LExprPtr &E,
                 const std::function<bool(const LocKey &)> &Pred);
/// True if \p E uses symbol \p Id (a value, a subscript, a reduction index).
bool usesSymbol(const LExprPtr &E, unsigned Id);
/// \p E with each Old placeholder replaced by \p Replace(the placeholder).
LExprPtr substituteOld(const LExprPtr &E,
                       const std::function<LExprPtr(const LExprPtr &)> &Replace);
/// True if \p A and \p B compute the same value in the same way: the same
/// tree of operations on the same symbols, arguments and elements.
bool sameValue(const LExprPtr &A, const LExprPtr &B);
/// Every node of \p E, parents before children; \p Visit gets the
/// reduction indices of the enclosing Reduce nodes.
void walk(const LExprPtr &E,
          const std::function<void(const LExpr &,
                                   const std::vector<unsigned> &)> &Visit);

} // namespace loopy::extract

#endif
