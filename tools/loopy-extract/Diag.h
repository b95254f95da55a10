//===- Diag.h - The diagnostics of loopy-extract ----------------*- C++ -*-===//
//
// Every message loopy-extract prints, in one place, and the Reporter that
// sends them through Clang's DiagnosticsEngine, so they come out like
// Clang's own: file:line:col, the source line and a caret. Formats use
// Clang's %0, %1, ... for arguments.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_DIAG_H
#define LOOPY_EXTRACT_DIAG_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"

namespace loopy::extract {

namespace msg {
// #pragma loopy
inline constexpr char UnknownPragma[] =
    "unknown '#pragma loopy %0'; expected 'kernel', 'shape' or 'assume'";
inline constexpr char PragmaKernelSyntax[] =
    "expected '#pragma loopy kernel' or '#pragma loopy kernel(NAME)'";
inline constexpr char PragmaShapeSyntax[] =
    "expected '#pragma loopy shape(ARRAY, EXTENT, ...)' with one extent per "
    "dimension, such as 'shape(a, n, m)'";
inline constexpr char PragmaAssumeSyntax[] =
    "expected '#pragma loopy assume(CONSTRAINTS)', such as 'assume(k <= m && "
    "n >= 1)'";
inline constexpr char PragmaNoTarget[] =
    "'#pragma loopy %0' must come right before a function definition or a "
    "'for' loop";
inline constexpr char PragmaTargetIsDeclaration[] =
    "'%0' is declared here but not defined; put '#pragma loopy kernel' "
    "before its definition";
inline constexpr char PragmaTargetIsTemplate[] =
    "function template '%0' cannot be lifted: its types are not known until "
    "it is instantiated; mark a plain function or a loop nest";
inline constexpr char PragmaKernelTwice[] =
    "'#pragma loopy kernel' is given twice for this %0";
inline constexpr char ShapeWithoutKernel[] =
    "'#pragma loopy %0' must be attached to a kernel: add '#pragma loopy "
    "kernel' before the same function or loop";
inline constexpr char ShapeTwice[] =
    "'#pragma loopy shape' is given twice for '%0'";
inline constexpr char ShapeUnknownArray[] =
    "'#pragma loopy shape' names '%0', which is not an array that this "
    "kernel accesses";
inline constexpr char ShapeBadExtent[] =
    "extent '%0' in '#pragma loopy shape' is not affine: use integer "
    "variables and constants with '+', '-' and multiplication by a constant, "
    "such as 'n', '2 * n + 1' or '64'";
inline constexpr char ShapeUnknownName[] =
    "'%0' in '#pragma loopy %1' is not an integer variable or constant "
    "visible to the kernel";
inline constexpr char AssumeBadConstraint[] =
    "'#pragma loopy assume' takes affine comparisons joined with '&&', such "
    "as 'k <= m && n >= 1'";
inline constexpr char DuplicateKernelName[] =
    "a kernel named '%0' is lifted already; name this one with '#pragma "
    "loopy kernel(NAME)'";
inline constexpr char PreviousKernel[] = "the other kernel '%0' is here";

// Loop nest structure
inline constexpr char NoLoop[] =
    "'%0' has no 'for' loop to lift; a kernel is a nest of 'for' loops";
inline constexpr char SecondLoop[] =
    "a kernel is one loop nest, but this loop stands beside the loop on line "
    "%0; mark each nest as its own kernel, or fuse the loops";
inline constexpr char FirstLoop[] = "the first loop is here";
inline constexpr char StatementNotLifted[] = "%0 cannot be lifted: %1";
inline constexpr char LoopInit[] =
    "the loop must set its index to a start value, such as 'for (int i = 0; "
    "...)' or 'for (i = 0; ...)'";
inline constexpr char LoopIndexNotLocal[] =
    "loop index '%0' is not a local variable of the function; declare it "
    "in the loop, such as 'for (int %0 = 0; ...)'";
inline constexpr char LoopIndexLive[] =
    "'%0' is read here, outside the loops over it, so the value that the "
    "loop on line %1 leaves in it may be used, but a lifted loop leaves no "
    "value; declare the index in the loop, such as 'for (int %0 = 0; ...)', "
    "or read another variable here";
inline constexpr char LoopIndexSetHere[] = "the loop sets '%0' here";
inline constexpr char LoopIndexReadElsewhere[] =
    "'%0' is read here, in the kernel but outside the loop on line %1 that "
    "sets it: a lifted index has a value only inside its loop; give the "
    "value read here a variable of its own";
inline constexpr char IndexSetOutsideLoop[] =
    "'%0' is set here, outside the loops over it";
inline constexpr char UsedAfterLoop[] =
    "its value is read here, after the loop, where only the last "
    "iteration's would remain";
inline constexpr char ScalarLive[] =
    "assignment to '%0', declared outside the kernel, cannot be lifted: it "
    "is read outside the loop nest, on line %1, but a kernel writes only "
    "arrays; store the value through a pointer argument";
inline constexpr char LoopIndexType[] =
    "loop index '%0' has type %1; use an integer type";
inline constexpr char LoopCondition[] =
    "loop condition '%0' cannot be lifted: compare the index '%1' with "
    "affine bounds, such as '%1 < n' or '%1 <= n - 1' (several joined with "
    "'&&')";
inline constexpr char LoopConditionDirection[] =
    "loop condition '%0' must bound '%1' from %select{above|below}2, since "
    "the loop counts %select{up|down}2";
inline constexpr char LoopIncrement[] =
    "loop increment '%0' cannot be lifted: use '++%1', '%1++', '%1 += C' or "
    "'%1 -= C' with a positive constant C";
inline constexpr char LoopNoIncrement[] =
    "the loop over '%0' has no increment, so its index never changes in the "
    "loop header; step it there with '++%0', '%0++', '%0 += C' or '%0 -= C' "
    "with a positive constant C";
inline constexpr char LoopNoCondition[] =
    "the loop over '%0' has no condition, so it has no upper bound; compare "
    "the index with affine bounds, such as '%0 < n'";
inline constexpr char LoopIncrementComma[] =
    "loop increment '%0' changes more than the index '%1'; a lifted loop "
    "steps only its own index, with '++%1', '%1++', '%1 += C' or '%1 -= C'";
inline constexpr char UnsignedDownToZero[] =
    "loop condition '%0' is always true for the unsigned index '%1': "
    "counting down, it wraps around to the largest value of its type "
    "instead of going below 0; use a signed index, or stop at the "
    "wrap-around with '%1 != (%2)-1'";
inline constexpr char EmptyDomain[] =
    "the loop over '%0' runs no iterations for any value of the parameters "
    "(lifted as %1), so the kernel does nothing; check the bounds of the "
    "loop";
inline constexpr char KernelNameNotAscii[] =
    "kernel name '%0' is not ASCII, but .loop names are made of ASCII "
    "letters, digits and '_'; name the kernel with '#pragma loopy "
    "kernel(NAME)'";
inline constexpr char LoopStepStart[] =
    "a loop with step %0 needs a single start value, not the maximum or "
    "minimum of several";
inline constexpr char LoopIndexModified[] =
    "loop index '%0' is modified in the loop body; only the loop header may "
    "change it";
inline constexpr char NotAffine[] =
    "%0 '%1' is not affine in the loop indices and parameters: %2";

// Statements and expressions
inline constexpr char ExprNotLifted[] = "'%0' cannot be lifted: %1";
inline constexpr char CallNotLifted[] =
    "call to '%0' cannot be lifted: it may have side effects; only the math "
    "functions sqrt, exp, log, sin, cos, tanh, pow, fma, fabs, abs, fmin, "
    "fmax, min and max can be called (in their float, double and std:: "
    "forms)";
inline constexpr char DataDependentIf[] =
    "data-dependent control flow cannot be lifted: the condition reads '%0'; "
    "compute both values and pick one with '?:'";
inline constexpr char IndexIf[] =
    "an 'if' on loop indices cannot be lifted; express the condition in the "
    "loop bounds";
inline constexpr char WriteOutside[] =
    "assignment to '%0', declared outside the kernel, cannot be lifted: a "
    "kernel writes only arrays; store the value through a pointer argument";
inline constexpr char LocalArray[] =
    "local array '%0' cannot be lifted; a kernel keeps only scalars in local "
    "variables";
inline constexpr char UnsupportedType[] =
    "'%0' has type %1, which has no .loop counterpart; use float, double, "
    "or an 8-, 16-, 32- or 64-bit integer type";
inline constexpr char PointerToPointer[] =
    "'%0' is a pointer to pointers, whose rows need not be contiguous; pass "
    "a flat pointer indexed as '%0[i * m + j]' or a pointer to arrays";
inline constexpr char UnresolvedPointer[] =
    "cannot resolve '%0' to an element of an array argument: %1";
inline constexpr char ReadBeforeWrite[] =
    "'%0' is read before it is assigned";
inline constexpr char NotAccumulated[] =
    "'%0' is assigned in every iteration of the loop over '%1' but not "
    "accumulated, so only the last value would remain; accumulate with "
    "'+=', '-=', '*=', max or min, or index it with '%1'";
inline constexpr char NotAReduction[] =
    "'%0' is updated in every iteration of the loop over '%1', but not as a "
    "reduction: only old + e, old - e, old * e, max(old, e) and min(old, e) "
    "can be lifted, with e free of '%0' and of the type of '%0'";
inline constexpr char UsesAccumulator[] =
    "this uses '%0' inside the loop over '%1', which accumulates into it; "
    "only its final value, after the loop, can be used";
inline constexpr char UsesPreviousIteration[] =
    "this reads '%0' before the iteration of the loop over '%1' sets it, so "
    "it reads the value that the previous iteration left: the iterations "
    "depend on each other; set '%0' before reading it in every iteration";
inline constexpr char SetLaterHere[] =
    "'%0' is set here, later in the iteration";
inline constexpr char MayAlias[] =
    "'%0' may alias '%1': the loop nest writes '%0' and %select{reads|"
    "writes}2 '%1' through pointers that may overlap; declare one of them "
    "'restrict' ('__restrict' in C++)";
inline constexpr char DeclaredHere[] = "'%0' is declared here";
inline constexpr char ReadHere[] = "'%0' is read here";
inline constexpr char OtherElement[] =
    "'%0' %select{reads|writes}1 '%2' at another element than '%3', which "
    "the loop nest also %select{writes|accesses}1; its iterations would "
    "depend on each other: write the results to a separate array";
inline constexpr char OtherElementAt[] =
    "'%0' %select{reads|writes}1 '%2' at another element than '%3', which "
    "the loop nest also %select{writes|accesses}1, so its iterations depend "
    "on each other: the iteration %4 %select{reads|writes}1 the element "
    "that the iteration %5 writes%6; write the results to a separate array";
inline constexpr char ReadOtherOutput[] =
    "'%0' reads '%1', which another statement of the loop nest writes; a "
    "lifted statement cannot read what another one writes: split the nest "
    "into two kernels";
inline constexpr char Infinity[] =
    "infinity can only start a max (-INFINITY) or min (INFINITY) "
    "accumulation; .loop has no infinite value";

// Shapes and domains (checked with isl)
inline constexpr char NegativeSubscript[] =
    "subscript '%0' of '%1' can be negative (at %2); an array argument is "
    "indexed from its first element";
inline constexpr char SubscriptTooLarge[] =
    "subscript '%0' of '%1' can reach its extent %2 in dimension %3 (at %4); "
    "make the loop bounds keep it inside, or give the bounds it relies on "
    "with '#pragma loopy assume(...)'";
inline constexpr char SubscriptNotSplit[] =
    "subscript '%0' of '%1' does not split into the dimensions [%2]: "
    "'%3' leaves 0 .. %4 - 1 (at %5); give the shape with '#pragma loopy "
    "shape(%1, ...)', or what keeps it inside with '#pragma loopy "
    "assume(...)'";
inline constexpr char ExtentNotAffine[] =
    "the size of '%0' is not one affine expression of the parameters (its "
    "largest subscript is %1); give it with '#pragma loopy shape(%0, ...)'";
inline constexpr char ExtentOverflow[] =
    "the size of '%0' does not fit in a signed 64-bit integer (its largest "
    "subscript is %1); keep subscripts below 2^63 - 1";
inline constexpr char StridesDoNotNest[] =
    "the subscripts of '%0' use the strides '%1' and '%2', which do not nest "
    "as the strides of one array; give its shape with '#pragma loopy "
    "shape(%0, ...)'";
inline constexpr char ShapeRank[] =
    "'#pragma loopy shape' gives '%0' %1 dimensions, but its type has %2 "
    "levels of subscripts";
inline constexpr char ShapeExtentMismatch[] =
    "'#pragma loopy shape' gives dimension %0 of '%1' the extent '%2', but "
    "its type says '%3'";
inline constexpr char ShapeStride[] =
    "extent '%0' in '#pragma loopy shape' cannot split the one subscript of "
    "'%1': inner extents of a flat pointer must be products of parameters "
    "and constants";
inline constexpr char EmptyLoop[] =
    "%0 where the loop over '%1' runs zero times (at %2); the lifted kernel "
    "would skip %select{that write|those terms}3: move it into the loop or "
    "make the loop run at least once";
inline constexpr char LoopHere[] = "the loop over '%0' is here";

// two statements on one element
inline constexpr char SameValueTwice[] =
    "'%0' writes elements that '%1' writes, with the same value, such as "
    "at the iteration (%2)%3; a kernel has one writer per element, so "
    "'%0' cannot be lifted beside it: write it in a loop of its own after "
    "this one, with bounds that leave those iterations out, and it becomes "
    "a kernel of its own";
inline constexpr char OtherValueTwice[] =
    "'%0' writes the element that '%1' writes, with another value, at the "
    "iteration (%2)%3; a kernel has one writer per element and does not "
    "order its statements: write it in a loop of its own after this one";
inline constexpr char OtherWriteHere[] = "'%0' is written here";

// loop distribution
inline constexpr char DistributedDependence[] =
    "'%0' %select{reads|writes}1 '%2' at the element that '%3' "
    "%select{reads|writes}4 in an earlier iteration of the loops over %5: the "
    "iteration (%6) %select{reads|writes}1 what the iteration (%7) "
    "%select{reads|writes}4%8; the loops carry this dependence back from a "
    "later part of their body, so they cannot be split into one kernel per "
    "part";
inline constexpr char DistributedAccess[] = "'%0' is here";
inline constexpr char HostCarried[] =
    "'%0' reads '%1' at the element that '%2' writes in an earlier "
    "iteration of the loops over %3: the iteration (%4) reads what the "
    "iteration (%5) writes%6; these loops carry the dependence, and their "
    "body overwrites an element in each of their iterations, so they can "
    "be neither kernel loops nor split into one kernel per part";
inline constexpr char StatementCycle[] =
    "'%0' %select{reads|writes}1 '%2' in the iteration (%3), after '%4' "
    "%select{reads|writes}5 that element in the iteration (%6)%7, but the "
    "statement of '%4' also depends on the one of '%0'; the statements "
    "depend on each other both ways, so the loops over %8 cannot be split "
    "into one kernel per statement in any order";
inline constexpr char StatementCycleOther[] =
    "'%0' %select{reads|writes}1 '%2' in the iteration (%3), after '%4' "
    "%select{reads|writes}5 that element in the iteration (%6)%7";
inline constexpr char DistributedUnknown[] =
    "the subscripts of '%0' in '%1' and '%2' are not affine in the same "
    "dimensions, so the loops over %3 cannot be proved safe to split into "
    "one kernel per part; give the shape of '%0' with '#pragma loopy "
    "shape(%0, ...)'";

// loopyc's checks on the lifted kernel
inline constexpr char Loopyc[] = "%0";
inline constexpr char LiftedAs[] = "in the lifted kernel, this is '%0'";
} // namespace msg

/// True if \p Format, the format of a diagnostic, is one of the messages
/// that name a dependence between iterations of a nest.
inline bool isDependence(llvm::StringRef Format) {
  for (const char *F :
       {msg::UsesAccumulator, msg::UsesPreviousIteration, msg::OtherElement,
        msg::OtherElementAt, msg::DistributedDependence, msg::HostCarried,
        msg::StatementCycle})
    if (Format == F)
      return true;
  return false;
}

/// Thrown after an error was reported, to give up on the current kernel.
struct LiftFailed {};

class Reporter {
public:
  explicit Reporter(clang::DiagnosticsEngine &D) : D(D) {}

  /// An error at \p R (its start, with the range underlined).
  clang::DiagnosticBuilder error(clang::SourceRange R, const char *Format) {
    return report(clang::DiagnosticsEngine::Error, R, Format);
  }
  clang::DiagnosticBuilder warning(clang::SourceRange R, const char *Format) {
    return report(clang::DiagnosticsEngine::Warning, R, Format);
  }
  clang::DiagnosticBuilder note(clang::SourceRange R, const char *Format) {
    return report(clang::DiagnosticsEngine::Note, R, Format);
  }
  bool hasErrors() const { return D.hasErrorOccurred(); }

private:
  clang::DiagnosticBuilder report(clang::DiagnosticsEngine::Level L,
                                  clang::SourceRange R, const char *Format) {
    unsigned Id = D.getDiagnosticIDs()->getCustomDiagID(
        static_cast<clang::DiagnosticIDs::Level>(L), Format);
    clang::DiagnosticBuilder B = D.Report(R.getBegin(), Id);
    if (R.getBegin() != R.getEnd() && R.getEnd().isValid())
      B << clang::CharSourceRange::getTokenRange(R);
    return B;
  }

  clang::DiagnosticsEngine &D;
};

} // namespace loopy::extract

#endif
