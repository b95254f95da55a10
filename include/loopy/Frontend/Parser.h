//===- Parser.h - Parser of the .loop language ------------------*- C++ -*-===//
//
// parseModule takes the text of a .loop file and produces its syntax tree
// (ast::Module). Syntax errors are reported through the DiagnosticEngine;
// the parser recovers at the next ';' or '}' so that one run reports every
// independent error.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_FRONTEND_PARSER_H
#define LOOPY_FRONTEND_PARSER_H

#include "loopy/Frontend/AST.h"
#include "loopy/Support/Diagnostics.h"

namespace loopy {

/// Parses every kernel of \p SM's buffer.
ast::Module parseModule(const SourceManager &SM, DiagnosticEngine &Diags);

} // namespace loopy

#endif
