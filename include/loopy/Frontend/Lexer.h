//===- Lexer.h - Tokenizer of the .loop language ----------------*- C++ -*-===//
//
// Turns a source buffer into tokens. Comments run from '#' or '//' to the end
// of the line. The isl text of `domain { ... }` and `assume ...;` is not
// tokenized: the parser asks for it raw with scanBalancedBraces / scanToSemi.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_FRONTEND_LEXER_H
#define LOOPY_FRONTEND_LEXER_H

#include "loopy/Frontend/Token.h"
#include "loopy/Support/Diagnostics.h"

namespace loopy {

class Lexer {
public:
  Lexer(const SourceManager &SM, DiagnosticEngine &Diags);

  /// Lexes and returns the next token.
  Token next();

  /// With the lexer positioned just after a '{' at \p OpenOffset, skips to
  /// the matching '}' and returns the range from '{' to '}' inclusive. On an
  /// unterminated brace reports an error and returns an invalid range; the
  /// lexer is then left at the end of the text or, where the '}' was
  /// forgotten before a statement ("y[i] = ..." starting a line), at that
  /// statement.
  SourceRange scanBalancedBraces(uint32_t OpenOffset);

  /// Returns the raw text range from the current position up to (excluding)
  /// the next ';' at brace depth 0, and leaves the lexer on the ';'.
  SourceRange scanToSemi();

private:
  void skipSpaceAndComments();

  const SourceManager &SM;
  DiagnosticEngine &Diags;
  const std::string &Text;
  uint32_t Pos = 0;
};

} // namespace loopy

#endif
