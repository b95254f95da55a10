//===- Lexer.cpp - Tokenizer of the .loop language ------------------------===//
#include "loopy/Frontend/Lexer.h"

#include <cctype>

namespace loopy {

const char *tokenKindSpelling(TokenKind K) {
  switch (K) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid character";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::IntLiteral:
    return "integer literal";
  case TokenKind::FloatLiteral:
    return "floating-point literal";
  case TokenKind::KwKernel:
    return "'kernel'";
  case TokenKind::KwDomain:
    return "'domain'";
  case TokenKind::KwAssume:
    return "'assume'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Semi:
    return "';'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::LessEqual:
    return "'<='";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::GreaterEqual:
    return "'>='";
  case TokenKind::EqualEqual:
    return "'=='";
  case TokenKind::BangEqual:
    return "'!='";
  case TokenKind::AmpAmp:
    return "'&&'";
  case TokenKind::PipePipe:
    return "'||'";
  case TokenKind::Bang:
    return "'!'";
  }
  return "token";
}

Lexer::Lexer(const SourceManager &SM, DiagnosticEngine &Diags)
    : SM(SM), Diags(Diags), Text(SM.text()) {}

void Lexer::skipSpaceAndComments() {
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++Pos;
    } else if (C == '#' ||
               (C == '/' && Pos + 1 < Text.size() && Text[Pos + 1] == '/')) {
      while (Pos < Text.size() && Text[Pos] != '\n')
        ++Pos;
    } else {
      return;
    }
  }
}

static bool isIdentStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_';
}
static bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}
static bool isDigit(char C) {
  return std::isdigit(static_cast<unsigned char>(C));
}

Token Lexer::next() {
  skipSpaceAndComments();
  Token T;
  uint32_t Start = Pos;
  auto Make = [&](TokenKind K, uint32_t Len) {
    Pos = Start + Len;
    T.Kind = K;
    T.Range = {Start, Pos};
    T.Text = std::string_view(Text.data() + Start, Len);
    return T;
  };
  if (Pos >= Text.size())
    return Make(TokenKind::Eof, 0);

  char C = Text[Pos];
  char N = Pos + 1 < Text.size() ? Text[Pos + 1] : '\0';
  if (isIdentStart(C)) {
    uint32_t E = Pos;
    while (E < Text.size() && isIdentChar(Text[E]))
      ++E;
    std::string_view S(Text.data() + Start, E - Start);
    TokenKind K = TokenKind::Identifier;
    if (S == "kernel")
      K = TokenKind::KwKernel;
    else if (S == "domain")
      K = TokenKind::KwDomain;
    else if (S == "assume")
      K = TokenKind::KwAssume;
    return Make(K, E - Start);
  }
  if (isDigit(C) || (C == '.' && isDigit(N))) {
    uint32_t E = Pos;
    bool IsFloat = false;
    while (E < Text.size() && isDigit(Text[E]))
      ++E;
    if (E < Text.size() && Text[E] == '.') {
      IsFloat = true;
      ++E;
      while (E < Text.size() && isDigit(Text[E]))
        ++E;
    }
    if (E < Text.size() && (Text[E] == 'e' || Text[E] == 'E')) {
      uint32_t X = E + 1;
      if (X < Text.size() && (Text[X] == '+' || Text[X] == '-'))
        ++X;
      if (X < Text.size() && isDigit(Text[X])) {
        IsFloat = true;
        E = X;
        while (E < Text.size() && isDigit(Text[E]))
          ++E;
      }
    }
    if (E < Text.size() && isIdentStart(Text[E])) {
      uint32_t Bad = E;
      while (E < Text.size() && isIdentChar(Text[E]))
        ++E;
      Diags.error({Start, E}, "invalid suffix " +
                                  quote(std::string_view(Text.data() + Bad,
                                                         E - Bad)) +
                                  " on numeric literal");
    }
    return Make(IsFloat ? TokenKind::FloatLiteral : TokenKind::IntLiteral,
                E - Start);
  }
  switch (C) {
  case '(':
    return Make(TokenKind::LParen, 1);
  case ')':
    return Make(TokenKind::RParen, 1);
  case '[':
    return Make(TokenKind::LBracket, 1);
  case ']':
    return Make(TokenKind::RBracket, 1);
  case '{':
    return Make(TokenKind::LBrace, 1);
  case '}':
    return Make(TokenKind::RBrace, 1);
  case ',':
    return Make(TokenKind::Comma, 1);
  case ';':
    return Make(TokenKind::Semi, 1);
  case ':':
    return Make(TokenKind::Colon, 1);
  case '+':
    return Make(TokenKind::Plus, 1);
  case '-':
    return Make(TokenKind::Minus, 1);
  case '*':
    return Make(TokenKind::Star, 1);
  case '/':
    return Make(TokenKind::Slash, 1);
  case '%':
    return Make(TokenKind::Percent, 1);
  case '=':
    return N == '=' ? Make(TokenKind::EqualEqual, 2)
                    : Make(TokenKind::Equal, 1);
  case '<':
    return N == '=' ? Make(TokenKind::LessEqual, 2) : Make(TokenKind::Less, 1);
  case '>':
    return N == '=' ? Make(TokenKind::GreaterEqual, 2)
                    : Make(TokenKind::Greater, 1);
  case '!':
    return N == '=' ? Make(TokenKind::BangEqual, 2) : Make(TokenKind::Bang, 1);
  case '&':
    if (N == '&')
      return Make(TokenKind::AmpAmp, 2);
    break;
  case '|':
    if (N == '|')
      return Make(TokenKind::PipePipe, 2);
    break;
  default:
    break;
  }
  // Report a whole UTF-8 sequence as one character.
  uint32_t Len = 1;
  while (Start + Len < Text.size() &&
         (static_cast<unsigned char>(Text[Start + Len]) & 0xC0) == 0x80)
    ++Len;
  // Show control characters and stray bytes (not UTF-8) by their code.
  std::string Shown(Text.data() + Start, Len);
  unsigned char First = static_cast<unsigned char>(C);
  if (First < 0x20 || First == 0x7f || (First >= 0x80 && Len == 1)) {
    static const char Hex[] = "0123456789abcdef";
    Shown = std::string("\\x") + Hex[First >> 4] + Hex[First & 15];
  }
  Diags.error({Start, Start + Len}, "unexpected character " + quote(Shown));
  return Make(TokenKind::Error, Len);
}

/// True if a statement "name[...] =" (not "==") starts at \p P, after
/// blanks. isl set text never has this shape, so a domain scan that meets it
/// at the start of a line has run past a forgotten '}'.
static bool looksLikeStatement(const std::string &Text, uint32_t P) {
  auto Blanks = [&] {
    while (P < Text.size() && (Text[P] == ' ' || Text[P] == '\t'))
      ++P;
  };
  Blanks();
  if (P >= Text.size() || !isIdentStart(Text[P]))
    return false;
  while (P < Text.size() && isIdentChar(Text[P]))
    ++P;
  Blanks();
  if (P >= Text.size() || Text[P] != '[')
    return false;
  while (P < Text.size() && Text[P] != ']' && Text[P] != '\n')
    ++P;
  if (P >= Text.size() || Text[P] != ']')
    return false;
  ++P;
  Blanks();
  return P + 1 < Text.size() && Text[P] == '=' && Text[P + 1] != '=';
}

SourceRange Lexer::scanBalancedBraces(uint32_t OpenOffset) {
  unsigned Depth = 1;
  while (Pos < Text.size()) {
    char C = Text[Pos++];
    if (C == '\n' && looksLikeStatement(Text, Pos))
      break;
    if (C == '{') {
      ++Depth;
    } else if (C == '}' && --Depth == 0) {
      return {OpenOffset, Pos};
    } else if (C == '#' ||
               (C == '/' && Pos < Text.size() && Text[Pos] == '/')) {
      while (Pos < Text.size() && Text[Pos] != '\n')
        ++Pos;
    }
  }
  Diags.error({OpenOffset, OpenOffset + 1},
              "unterminated '{': the domain has no matching '}'");
  return {};
}

SourceRange Lexer::scanToSemi() {
  skipSpaceAndComments();
  uint32_t Start = Pos;
  unsigned Depth = 0;
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (C == '{')
      ++Depth;
    else if (C == '}') {
      if (Depth == 0)
        break;
      --Depth;
    } else if (C == ';' && Depth == 0)
      break;
    ++Pos;
  }
  uint32_t End = Pos;
  while (End > Start &&
         std::isspace(static_cast<unsigned char>(Text[End - 1])))
    --End;
  return {Start, End};
}

} // namespace loopy
