//===- LoopPrinter.h - A lifted kernel as .loop text ------------*- C++ -*-===//
#ifndef LOOPY_EXTRACT_LOOPPRINTER_H
#define LOOPY_EXTRACT_LOOPPRINTER_H

#include "LiftedKernel.h"

#include <string>

namespace loopy::extract {

/// The .loop text of \p K (after inferShapes): a comment naming its
/// origin, the signature, the assumption, the domain and the statements.
std::string printKernel(const LiftedKernel &K);

} // namespace loopy::extract

#endif
