//===- PragmaExpr.cpp - Expressions in #pragma loopy shape / assume -------===//
#include "PragmaExpr.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace loopy::extract {

namespace {

class Parser {
public:
  Parser(const std::vector<PragmaToken> &Tokens, const PragmaNameResolver &Resolve)
      : Tokens(Tokens), Resolve(Resolve) {}

  bool atEnd() const { return Pos == Tokens.size(); }
  const std::string &peek() const {
    static const std::string End;
    return atEnd() ? End : Tokens[Pos].Text;
  }
  bool accept(const std::string &T) {
    if (peek() != T)
      return false;
    ++Pos;
    return true;
  }

  std::optional<Poly> sum() {
    std::optional<Poly> P = product();
    while (P && (peek() == "+" || peek() == "-")) {
      bool Minus = peek() == "-";
      ++Pos;
      std::optional<Poly> Q = product();
      if (!Q)
        return std::nullopt;
      P = Minus ? *P - *Q : *P + *Q;
    }
    return P;
  }

private:
  std::optional<Poly> product() {
    std::optional<Poly> P = factor();
    while (P && accept("*")) {
      std::optional<Poly> Q = factor();
      if (!Q)
        return std::nullopt;
      P = *P * *Q;
    }
    return P;
  }

  std::optional<Poly> factor() {
    if (atEnd())
      return std::nullopt;
    const PragmaToken &T = Tokens[Pos++];
    if (T.Text == "-") {
      std::optional<Poly> P = factor();
      return P ? std::optional<Poly>(-*P) : std::nullopt;
    }
    if (T.Text == "(") {
      std::optional<Poly> P = sum();
      return P && accept(")") ? P : std::nullopt;
    }
    unsigned char C = static_cast<unsigned char>(T.Text[0]);
    if (std::isdigit(C)) {
      char *End = nullptr;
      errno = 0;
      long V = std::strtol(T.Text.c_str(), &End, 0);
      return *End || errno == ERANGE ? std::nullopt
                                     : std::optional<Poly>(Poly::constant(V));
    }
    if (std::isalpha(C) || C == '_')
      return Resolve(T);
    return std::nullopt;
  }

  const std::vector<PragmaToken> &Tokens;
  const PragmaNameResolver &Resolve;
  size_t Pos = 0;
};

} // namespace

std::optional<Poly> parsePragmaAffine(const std::vector<PragmaToken> &Tokens,
                                      const PragmaNameResolver &Resolve) {
  Parser P(Tokens, Resolve);
  std::optional<Poly> E = P.sum();
  if (!E || !P.atEnd() || !E->isAffine())
    return std::nullopt;
  return E;
}

std::optional<std::vector<PragmaComparison>>
parsePragmaConstraints(const std::vector<PragmaToken> &Tokens,
                       const PragmaNameResolver &Resolve) {
  Parser P(Tokens, Resolve);
  std::vector<PragmaComparison> Out;
  do {
    std::optional<Poly> L = P.sum();
    std::string Op = P.peek();
    if (!L || !(Op == "<" || Op == "<=" || Op == ">" || Op == ">=" || Op == "=="))
      return std::nullopt;
    P.accept(Op);
    std::optional<Poly> R = P.sum();
    if (!R || !L->isAffine() || !R->isAffine())
      return std::nullopt;
    Out.push_back({*L, Op == "==" ? "=" : Op, *R});
  } while (P.accept("&&"));
  if (!P.atEnd())
    return std::nullopt;
  return Out;
}

} // namespace loopy::extract
