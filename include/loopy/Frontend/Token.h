//===- Token.h - Tokens of the .loop language -------------------*- C++ -*-===//
#ifndef LOOPY_FRONTEND_TOKEN_H
#define LOOPY_FRONTEND_TOKEN_H

#include "loopy/Support/SourceManager.h"

#include <string_view>

namespace loopy {

enum class TokenKind {
  Eof,
  Error, // a character the lexer does not know
  Identifier,
  IntLiteral,
  FloatLiteral,
  // Keywords.
  KwKernel,
  KwDomain,
  KwAssume,
  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semi,
  Colon,
  Equal,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  EqualEqual,
  BangEqual,
  AmpAmp,
  PipePipe,
  Bang,
};

/// A printable spelling of a token kind for "expected X" messages.
const char *tokenKindSpelling(TokenKind K);

struct Token {
  TokenKind Kind = TokenKind::Eof;
  SourceRange Range;
  std::string_view Text;

  bool is(TokenKind K) const { return Kind == K; }
  bool isIdentifier(std::string_view S) const {
    return Kind == TokenKind::Identifier && Text == S;
  }
};

} // namespace loopy

#endif
