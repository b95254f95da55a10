//===- LoopPrinter.h - A lifted kernel as .loop text ------------*- C++ -*-===//
#ifndef LOOPY_EXTRACT_LOOPPRINTER_H
#define LOOPY_EXTRACT_LOOPPRINTER_H

#include "LiftedKernel.h"

#include <string>
#include <vector>

namespace loopy::extract {

/// The .loop text of \p K (after inferShapes): a comment naming its
/// origin, the signature, the assumption, the domain and the statements.
std::string printKernel(const LiftedKernel &K);

/// As above; \p LineOrigins gets, for each line of the text, the C source
/// it was lifted from: the loops for the domain, the C assignment for a
/// statement, K.Loc for the rest.
std::string printKernel(const LiftedKernel &K,
                        std::vector<clang::SourceRange> &LineOrigins);

} // namespace loopy::extract

#endif
