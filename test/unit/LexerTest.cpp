//===- LexerTest.cpp - Unit tests of the .loop lexer ----------------------===//
#include "loopy/Frontend/Lexer.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace loopy;

namespace {

std::vector<TokenKind> kinds(const std::string &Text, std::string *Errors = nullptr) {
  SourceManager SM("t.loop", Text);
  std::ostringstream Err;
  DiagnosticEngine Diags(&SM, Err);
  Lexer L(SM, Diags);
  std::vector<TokenKind> Out;
  for (Token T = L.next(); !T.is(TokenKind::Eof); T = L.next())
    Out.push_back(T.Kind);
  if (Errors)
    *Errors = Err.str();
  return Out;
}

TEST(Lexer, PunctuationAndOperators) {
  using K = TokenKind;
  EXPECT_EQ(kinds("<= < >= > == != && || ! = %"),
            (std::vector<K>{K::LessEqual, K::Less, K::GreaterEqual, K::Greater,
                            K::EqualEqual, K::BangEqual, K::AmpAmp, K::PipePipe,
                            K::Bang, K::Equal, K::Percent}));
}

TEST(Lexer, NumbersKeywordsAndComments) {
  using K = TokenKind;
  EXPECT_EQ(kinds("kernel domain assume x 12 1.5 2e-3 .5 # comment\n// also\ny"),
            (std::vector<K>{K::KwKernel, K::KwDomain, K::KwAssume, K::Identifier,
                            K::IntLiteral, K::FloatLiteral, K::FloatLiteral,
                            K::FloatLiteral, K::Identifier}));
}

TEST(Lexer, ReportsUnknownCharacterWithCaret) {
  std::string Errors;
  kinds("a $ b", &Errors);
  EXPECT_EQ(Errors, "t.loop:1:3: error: unexpected character '$'\n"
                    "a $ b\n"
                    "  ^\n");
}

TEST(Lexer, BalancedBracesAreScannedRaw) {
  SourceManager SM("t.loop", "{ [i] : { nested } } ;");
  std::ostringstream Err;
  DiagnosticEngine Diags(&SM, Err);
  Lexer L(SM, Diags);
  Token Open = L.next();
  ASSERT_TRUE(Open.is(TokenKind::LBrace));
  SourceRange R = L.scanBalancedBraces(Open.Range.Begin);
  EXPECT_EQ(SM.slice(R), "{ [i] : { nested } }");
  EXPECT_TRUE(L.next().is(TokenKind::Semi));
}

} // namespace
