//===- SplitReductions.h - One reduction per statement -----------*- C++ -*-===//
//
// The lowering gives a statement one reduction loop nest. A statement
// whose right-hand side holds a reduction inside another's body (the
// softmax's sum(j, exp(x[i, j] - max(k, x[i, k])))) or several side by side
// (sum(j, a[i, j]) + sum(k, b[i, k])) is split: each such reduction,
// innermost first, is computed by a statement of its own into a temporary
// array, indexed by the indices its value depends on, which the statement
// then reads. The temporaries are arguments that the kernel's runners
// allocate (Argument::Internal); the statements run in order.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_LIB_SEMA_SPLITREDUCTIONS_H
#define LOOPY_LIB_SEMA_SPLITREDUCTIONS_H

#include "loopy/IR/Kernel.h"
#include "loopy/Support/Diagnostics.h"

#include <vector>

namespace loopy::sema {

/// Splits \p St, a checked statement of \p K, so that each statement holds
/// one reduction at most (see above). A reduction nested in others ranges,
/// at each point of the indices around it (the output indices and the
/// enclosing reductions' indices), over its indices within the statement's
/// domain; its temporary is indexed by the indices around it that its
/// body uses, and by every index around it where isl finds that the
/// domain ties its range to one of the others (a triangle). Appends to
/// \p Before the statements that compute the temporaries, in the order
/// they run, before \p St; adds the temporaries to K.Args; leaves \p St
/// reading them. False after reporting an error at the reduction: where a
/// temporary's extent is not one affine function of the sizes.
bool splitReductions(Kernel &K, Statement &St, std::vector<Statement> &Before,
                     DiagnosticEngine &Diags);

} // namespace loopy::sema

#endif
