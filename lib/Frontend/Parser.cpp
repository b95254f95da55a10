//===- Parser.cpp - Parser of the .loop language --------------------------===//
//
// A recursive-descent parser. On a syntax error it reports once, unwinds to
// the enclosing item (statement, parameter group, kernel) with a ParseFailure
// and skips to a token where parsing can resume.
//
//===----------------------------------------------------------------------===//
#include "loopy/Frontend/Parser.h"
#include "loopy/Frontend/Lexer.h"

#include <algorithm>
#include <string>

namespace loopy {
namespace {

using namespace ast;

struct ParseFailure {};

ExprPtr cloneExpr(const Expr &E) {
  auto N = std::make_unique<Expr>(E.K, E.Range);
  N->Name = E.Name;
  N->NameRange = E.NameRange;
  N->Op = E.Op;
  N->OpRange = E.OpRange;
  N->Outer = E.Outer;
  N->Depth = E.Depth;
  for (const ExprPtr &A : E.Args)
    N->Args.push_back(cloneExpr(*A));
  return N;
}

class Parser {
public:
  Parser(const SourceManager &SM, DiagnosticEngine &Diags)
      : SM(SM), Diags(Diags), Lex(SM, Diags) {
    lexNext();
  }

  Module parseModule();

private:
  // Token handling.
  void consume() {
    PrevEnd = Tok.Range.End;
    lexNext();
  }
  /// Reads the next token into Tok, stepping over characters the lexer
  /// has reported.
  void lexNext() {
    Tok = Lex.next();
    while (Tok.is(TokenKind::Error)) {
      SkippedBadChar = true;
      Tok = Lex.next();
    }
  }
  bool consumeIf(TokenKind K) {
    if (!Tok.is(K))
      return false;
    consume();
    return true;
  }
  Token expect(TokenKind K, const char *Context);
  [[noreturn]] void fail(const std::string &Msg) {
    syntaxError(here(), Msg);
    throw ParseFailure{};
  }
  /// Reports a syntax error, unless one was reported at the same place: at
  /// the end of a truncated file every enclosing construct would complain.
  void syntaxError(SourceRange R, const std::string &Msg) {
    // The lexer has reported a bad character of this item already; what
    // the parser finds around the gap it left adds nothing.
    if (R.Begin == LastErrorAt || SkippedBadChar)
      return;
    LastErrorAt = R.Begin;
    Diags.error(R, Msg);
  }
  /// Where an error about the current token points: the token, or at the
  /// end of file just past the last token (not on a blank last line).
  SourceRange here() const {
    if (Tok.is(TokenKind::Eof))
      return {PrevEnd, PrevEnd + 1};
    return Tok.Range;
  }
  std::string found() const {
    if (Tok.is(TokenKind::Eof))
      return "end of file";
    return quote(Tok.Text);
  }
  /// Skips tokens until one of \p Stops (not consumed) or end of file,
  /// stepping over balanced brackets.
  void skipTo(std::initializer_list<TokenKind> Stops);

  // Grammar.
  void parseKernel(Module &M);
  void parseParamGroup(KernelDecl &K);
  TypeSpec parseType();
  void parseBodyItem(KernelDecl &K);
  ExprPtr parseExpr();
  ExprPtr parseBinary(int MinPrec);
  ExprPtr parseUnary();
  ExprPtr parsePrimary();
  std::vector<ExprPtr> parseExprList(TokenKind Close, const char *Context);
  /// Sets \p E's depth to one more than its deepest part (\p Parts) and
  /// rejects it, at \p At, past MaxExprDepth.
  void setDepth(Expr &E, unsigned Parts, SourceRange At);
  [[noreturn]] void tooDeep(SourceRange At);

  const SourceManager &SM;
  DiagnosticEngine &Diags;
  Lexer Lex;
  Token Tok;
  uint32_t PrevEnd = 0;
  uint32_t LastErrorAt = SourceRange::npos;
  /// A bad character was skipped in the current item (parameter group,
  /// statement, or the text between them).
  bool SkippedBadChar = false;
  unsigned Depth = 0;
};

Token Parser::expect(TokenKind K, const char *Context) {
  if (!Tok.is(K))
    fail(std::string("expected ") + tokenKindSpelling(K) + " " + Context +
         ", found " + found());
  Token T = Tok;
  consume();
  return T;
}

void Parser::skipTo(std::initializer_list<TokenKind> Stops) {
  int Nest = 0;
  while (!Tok.is(TokenKind::Eof)) {
    if (Nest == 0)
      for (TokenKind S : Stops)
        if (Tok.is(S))
          return;
    if (Tok.is(TokenKind::LParen) || Tok.is(TokenKind::LBracket))
      ++Nest;
    else if ((Tok.is(TokenKind::RParen) || Tok.is(TokenKind::RBracket)) &&
             Nest > 0)
      --Nest;
    else if (Tok.is(TokenKind::LBrace) || Tok.is(TokenKind::RBrace) ||
             Tok.is(TokenKind::KwKernel))
      Nest = 0; // never skip across a block boundary inside brackets
    consume();
  }
}

Module Parser::parseModule() {
  Module M;
  while (!Tok.is(TokenKind::Eof)) {
    SkippedBadChar = false;
    if (!Tok.is(TokenKind::KwKernel)) {
      syntaxError(Tok.Range,
                  "expected 'kernel' at top level, found " + found());
      consume();
      skipTo({TokenKind::KwKernel});
      continue;
    }
    try {
      parseKernel(M);
    } catch (ParseFailure &) {
      skipTo({TokenKind::KwKernel});
    }
  }
  if (M.Kernels.empty() && !Diags.hasErrors())
    Diags.error("no kernel in " + SM.name() +
                ": a .loop file holds one or more 'kernel NAME(...) { ... }'");
  return M;
}

void Parser::parseKernel(Module &M) {
  KernelDecl K;
  uint32_t Begin = Tok.Range.Begin;
  consume(); // 'kernel'
  Token Name = expect(TokenKind::Identifier, "after 'kernel'");
  K.Name = std::string(Name.Text);
  K.NameRange = Name.Range;
  expect(TokenKind::LParen, "after the kernel name");
  unsigned ErrorsBefore = Diags.errorCount();
  if (!Tok.is(TokenKind::RParen)) {
    while (true) {
      try {
        parseParamGroup(K);
      } catch (ParseFailure &) {
        // A ',' at this level begins the next group ("x: in f32, y: ...").
        skipTo({TokenKind::Semi, TokenKind::Comma, TokenKind::RParen,
                TokenKind::LBrace});
      }
      if (consumeIf(TokenKind::Semi) || consumeIf(TokenKind::Comma))
        continue;
      if (Tok.is(TokenKind::Identifier)) {
        // A forgotten separator: report it and read the next group.
        syntaxError({PrevEnd, PrevEnd + 1},
                    "expected ',' or ';' between parameters, found " + found());
        continue;
      }
      break;
    }
  }
  if (!consumeIf(TokenKind::RParen)) {
    syntaxError(here(), "expected ')' to close the parameter list of " +
                            quote(K.Name) + ", found " + found());
    skipTo({TokenKind::LBrace});
  }
  K.Incomplete = Diags.errorCount() != ErrorsBefore;
  expect(TokenKind::LBrace, "to begin the kernel body");
  while (!Tok.is(TokenKind::RBrace) && !Tok.is(TokenKind::Eof)) {
    if (Tok.is(TokenKind::KwKernel)) {
      syntaxError(Tok.Range, "expected '}' to end kernel " + quote(K.Name) +
                                 " before the next kernel");
      K.Range = {Begin, PrevEnd};
      M.Kernels.push_back(std::move(K));
      return;
    }
    try {
      parseBodyItem(K);
    } catch (ParseFailure &) {
      skipTo({TokenKind::Semi, TokenKind::RBrace, TokenKind::KwKernel});
      consumeIf(TokenKind::Semi);
    }
  }
  if (!Tok.is(TokenKind::RBrace))
    syntaxError(here(), "expected '}' to end kernel " + quote(K.Name) +
                            ", found " + found());
  consumeIf(TokenKind::RBrace);
  K.Range = {Begin, PrevEnd};
  M.Kernels.push_back(std::move(K));
}

void Parser::parseParamGroup(KernelDecl &K) {
  SkippedBadChar = false;
  std::vector<Token> Names;
  Names.push_back(expect(TokenKind::Identifier, "in the parameter list"));
  while (consumeIf(TokenKind::Comma))
    Names.push_back(expect(TokenKind::Identifier, "in the parameter list"));
  expect(TokenKind::Colon, "after the parameter name");
  TypeSpec T = parseType();
  for (const Token &N : Names) {
    ParamDecl P;
    P.Name = std::string(N.Text);
    P.NameRange = N.Range;
    P.Type.K = T.K;
    P.Type.Range = T.Range;
    P.Type.DType = T.DType;
    P.Type.DTypeRange = T.DTypeRange;
    P.Type.Mode = T.Mode;
    P.Type.Layout = T.Layout;
    P.Type.LayoutRange = T.LayoutRange;
    // `a, b: in f32[n]` declares two arrays: each gets its own shape.
    for (const ExprPtr &E : T.Shape)
      P.Type.Shape.push_back(cloneExpr(*E));
    for (const ExprPtr &E : T.Strides)
      P.Type.Strides.push_back(cloneExpr(*E));
    K.Params.push_back(std::move(P));
  }
}

TypeSpec Parser::parseType() {
  TypeSpec T;
  uint32_t Begin = Tok.Range.Begin;
  if (Tok.isIdentifier("index")) {
    T.K = TypeSpec::Kind::Index;
    T.DType = "i64";
    T.DTypeRange = Tok.Range;
    consume();
    T.Range = {Begin, PrevEnd};
    return T;
  }
  bool HasMode = false;
  if (Tok.isIdentifier("in") || Tok.isIdentifier("out") ||
      Tok.isIdentifier("inout")) {
    T.Mode = Tok.Text == "in"    ? ArgMode::In
             : Tok.Text == "out" ? ArgMode::Out
                                 : ArgMode::InOut;
    HasMode = true;
    consume();
  }
  Token DT = expect(TokenKind::Identifier,
                    "for the type (index, f32, f64, i32, i64, or an array "
                    "such as 'in f32[n]')");
  T.DType = std::string(DT.Text);
  T.DTypeRange = DT.Range;
  if (!Tok.is(TokenKind::LBracket)) {
    if (HasMode)
      fail("expected '[' after " + quote(T.DType) +
           ": an 'in'/'out'/'inout' argument is an array such as " +
           quote(T.DType + "[n]") + " (use " + quote(T.DType + "[]") +
           " for a single value)");
    T.K = TypeSpec::Kind::Scalar;
    T.Range = {Begin, PrevEnd};
    return T;
  }
  T.K = TypeSpec::Kind::Array;
  if (!HasMode)
    Diags.error(T.DTypeRange, "array argument needs a mode: write 'in " +
                                  T.DType + "[...]', 'out " + T.DType +
                                  "[...]' or 'inout " + T.DType + "[...]'");
  consume(); // '['
  T.Shape = parseExprList(TokenKind::RBracket, "in the array shape");
  if (Tok.isIdentifier("layout")) {
    uint32_t LB = Tok.Range.Begin;
    consume();
    expect(TokenKind::LParen, "after 'layout'");
    Token L = expect(TokenKind::Identifier, "in 'layout(...)'");
    if (L.Text == "row_major")
      T.Layout = TypeSpec::Layout::RowMajor;
    else if (L.Text == "col_major")
      T.Layout = TypeSpec::Layout::ColMajor;
    else {
      Diags.error(L.Range, "unknown layout " + quote(L.Text) +
                               "; expected 'row_major' or 'col_major'");
    }
    expect(TokenKind::RParen, "to close 'layout('");
    T.LayoutRange = {LB, PrevEnd};
  } else if (Tok.isIdentifier("strides")) {
    uint32_t LB = Tok.Range.Begin;
    consume();
    expect(TokenKind::LParen, "after 'strides'");
    T.Strides = parseExprList(TokenKind::RParen, "in 'strides(...)'");
    T.Layout = TypeSpec::Layout::Strides;
    T.LayoutRange = {LB, PrevEnd};
  }
  T.Range = {Begin, PrevEnd};
  return T;
}

void Parser::parseBodyItem(KernelDecl &K) {
  SkippedBadChar = false;
  if (Tok.is(TokenKind::KwDomain)) {
    SourceRange Kw = Tok.Range;
    consume();
    if (!Tok.is(TokenKind::LBrace)) {
      syntaxError(here(), "expected '{' after 'domain': write the domain in "
                          "isl set notation, such as 'domain { [i] : 0 <= i "
                          "< n }'");
      // Skip the rest of the domain's line, which most likely holds its
      // '}' (that would otherwise end the kernel).
      K.Incomplete = true;
      unsigned Line = SM.lineCol(Kw.Begin).Line;
      while (!Tok.is(TokenKind::Eof) && !Tok.is(TokenKind::KwKernel) &&
             SM.lineCol(Tok.Range.Begin).Line == Line)
        consume();
      return;
    }
    uint32_t Open = Tok.Range.Begin;
    // The lexer has already moved past '{'; scan the raw isl text from there.
    SourceRange R = Lex.scanBalancedBraces(Open);
    lexNext();
    if (!R.isValid()) {
      // Reported by the lexer, which stopped at the end of the text or at
      // the statement the domain ran into; parse on from there.
      K.Incomplete = true;
      return;
    }
    PrevEnd = R.End;
    if (K.Domain.isValid()) {
      Diags.error(Kw, "kernel " + quote(K.Name) + " has more than one domain");
      Diags.note(K.DomainKeyword, "previous domain is here");
    } else {
      K.Domain = R;
      K.DomainKeyword = Kw;
    }
    consumeIf(TokenKind::Semi);
    return;
  }
  if (Tok.is(TokenKind::KwAssume)) {
    SourceRange Kw = Tok.Range;
    SourceRange R = Lex.scanToSemi();
    lexNext();
    if (R.Begin >= R.End) {
      Diags.error(Kw, "expected constraints after 'assume', such as "
                      "'assume n >= 1 and n mod 16 = 0;'");
    } else {
      K.Assumptions.push_back(R);
    }
    expect(TokenKind::Semi, "after the assumption");
    return;
  }
  // A statement: lhs '=' expr ';'
  Stmt S;
  uint32_t Begin = Tok.Range.Begin;
  if (!Tok.is(TokenKind::Identifier))
    fail("expected a statement, 'domain' or 'assume', found " + found());
  S.Lhs = parsePrimary();
  if (S.Lhs->K != Expr::Kind::Subscript) {
    Diags.error(S.Lhs->Range,
                "the left-hand side of a statement must be an array element "
                "such as 'c[i, j]' (write 'r[]' for a 0-dimensional array)");
  }
  if (!Tok.is(TokenKind::Equal)) {
    if (Tok.is(TokenKind::Plus) || Tok.is(TokenKind::Minus) ||
        Tok.is(TokenKind::Star))
      fail("compound assignment is not supported; write 'c[i] = c[i] + "
           "...' with 'c' declared inout, or use a reduction such as "
           "sum(k, ...)");
    fail("expected '=' after the left-hand side, found " + found());
  }
  consume();
  S.Rhs = parseExpr();
  if (!Tok.is(TokenKind::Semi)) {
    syntaxError({PrevEnd, PrevEnd + 1},
                "expected ';' after the statement, found " + found());
    throw ParseFailure{};
  }
  consume();
  S.Range = {Begin, PrevEnd};
  K.Stmts.push_back(std::move(S));
}

std::vector<ExprPtr> Parser::parseExprList(TokenKind Close,
                                           const char *Context) {
  std::vector<ExprPtr> Args;
  if (consumeIf(Close))
    return Args;
  while (true) {
    Args.push_back(parseExpr());
    if (consumeIf(TokenKind::Comma))
      continue;
    if (consumeIf(Close))
      return Args;
    fail(std::string("expected ',' or ") + tokenKindSpelling(Close) + " " +
         Context + ", found " + found());
  }
}

void Parser::tooDeep(SourceRange At) {
  syntaxError(At, "expression is nested too deeply: it has more than " +
                      std::to_string(MaxExprDepth) +
                      " levels of operators, calls and parentheses; write "
                      "long sums or products of similar terms as a "
                      "reduction, such as sum(k, ...)");
  throw ParseFailure{};
}

void Parser::setDepth(Expr &E, unsigned Parts, SourceRange At) {
  E.Depth = Parts + 1;
  if (E.Depth > MaxExprDepth)
    tooDeep(At);
}

ExprPtr Parser::parseExpr() {
  // The nesting the parser descends into before it builds a node (each
  // level adds to the depth of the node it becomes part of) is bounded
  // here; long operator chains are bounded by the depth of what is built.
  if (++Depth > MaxExprDepth)
    tooDeep(here());
  ExprPtr E = parseBinary(0);
  --Depth;
  return E;
}

static int precedence(TokenKind K) {
  switch (K) {
  case TokenKind::PipePipe:
    return 1;
  case TokenKind::AmpAmp:
    return 2;
  case TokenKind::EqualEqual:
  case TokenKind::BangEqual:
    return 3;
  case TokenKind::Less:
  case TokenKind::LessEqual:
  case TokenKind::Greater:
  case TokenKind::GreaterEqual:
    return 4;
  case TokenKind::Plus:
  case TokenKind::Minus:
    return 5;
  case TokenKind::Star:
  case TokenKind::Slash:
  case TokenKind::Percent:
    return 6;
  default:
    return -1;
  }
}

ExprPtr Parser::parseBinary(int MinPrec) {
  ExprPtr L = parseUnary();
  while (true) {
    int P = precedence(Tok.Kind);
    if (P < 0 || P < MinPrec)
      return L;
    Token Op = Tok;
    consume();
    ExprPtr R = parseBinary(P + 1);
    auto B = std::make_unique<Expr>(Expr::Kind::Binary,
                                    L->Outer.join(R->Outer));
    B->Op = Op.Kind;
    B->OpRange = Op.Range;
    setDepth(*B, std::max(L->Depth, R->Depth), Op.Range);
    B->Args.push_back(std::move(L));
    B->Args.push_back(std::move(R));
    L = std::move(B);
  }
}

ExprPtr Parser::parseUnary() {
  if (Tok.is(TokenKind::Minus) || Tok.is(TokenKind::Bang) ||
      Tok.is(TokenKind::Plus)) {
    Token Op = Tok;
    consume();
    if (++Depth > MaxExprDepth)
      tooDeep(Op.Range);
    ExprPtr Sub = parseUnary();
    --Depth;
    if (Op.is(TokenKind::Plus))
      return Sub;
    auto U = std::make_unique<Expr>(Expr::Kind::Unary,
                                    Op.Range.join(Sub->Outer));
    U->Op = Op.Kind;
    U->OpRange = Op.Range;
    setDepth(*U, Sub->Depth, Op.Range);
    U->Args.push_back(std::move(Sub));
    return U;
  }
  return parsePrimary();
}

ExprPtr Parser::parsePrimary() {
  Token T = Tok;
  switch (T.Kind) {
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral: {
    consume();
    auto E = std::make_unique<Expr>(T.is(TokenKind::IntLiteral)
                                        ? Expr::Kind::IntLit
                                        : Expr::Kind::FloatLit,
                                    T.Range);
    E->Name = std::string(T.Text);
    return E;
  }
  case TokenKind::Identifier: {
    consume();
    Expr::Kind K = Expr::Kind::Name;
    if (Tok.is(TokenKind::LBracket))
      K = Expr::Kind::Subscript;
    else if (Tok.is(TokenKind::LParen))
      K = Expr::Kind::Call;
    auto E = std::make_unique<Expr>(K, T.Range);
    E->Name = std::string(T.Text);
    E->NameRange = T.Range;
    if (K == Expr::Kind::Subscript) {
      consume();
      E->Args = parseExprList(TokenKind::RBracket, "in the subscript");
    } else if (K == Expr::Kind::Call) {
      consume();
      E->Args = parseExprList(TokenKind::RParen, "in the call");
    }
    E->Range = E->Outer = {T.Range.Begin, PrevEnd};
    unsigned Parts = 0;
    for (const ExprPtr &A : E->Args)
      Parts = std::max(Parts, A->Depth);
    if (!E->Args.empty())
      setDepth(*E, Parts, T.Range);
    return E;
  }
  case TokenKind::LParen: {
    consume();
    std::vector<ExprPtr> Items = parseExprList(TokenKind::RParen,
                                               "in the parenthesized list");
    SourceRange Whole{T.Range.Begin, PrevEnd};
    if (Items.size() == 1) {
      // No node of its own, but a level like any other.
      Items[0]->Outer = Whole;
      setDepth(*Items[0], Items[0]->Depth, T.Range);
      return std::move(Items[0]);
    }
    auto E = std::make_unique<Expr>(Expr::Kind::Tuple, Whole);
    if (Items.empty())
      fail("empty parentheses '()' are not an expression");
    E->Args = std::move(Items);
    unsigned Parts = 0;
    for (const ExprPtr &A : E->Args)
      Parts = std::max(Parts, A->Depth);
    setDepth(*E, Parts, T.Range);
    return E;
  }
  default:
    fail("expected an expression, found " + found());
  }
}

} // namespace

ast::Module parseModule(const SourceManager &SM, DiagnosticEngine &Diags) {
  return Parser(SM, Diags).parseModule();
}

} // namespace loopy
