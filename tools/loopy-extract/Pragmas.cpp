//===- Pragmas.cpp - #pragma loopy kernel / shape / assume ----------------===//
#include "Pragmas.h"
#include "Diag.h"

#include "clang/Lex/Preprocessor.h"

namespace loopy::extract {

namespace {

/// Reads one pragma after `loopy`; false after reporting a syntax error.
class PragmaParser {
public:
  explicit PragmaParser(clang::Preprocessor &PP) : PP(PP), R(PP.getDiagnostics()) {
    PP.Lex(Tok);
  }

  bool parse(LoopyPragma &P) {
    if (Tok.isNot(clang::tok::identifier)) {
      R.error(Tok.getLocation(), msg::UnknownPragma)
          << (Tok.is(clang::tok::eod) ? "" : PP.getSpelling(Tok));
      return false;
    }
    std::string Word = PP.getSpelling(Tok);
    P.Loc = Tok.getLocation();
    PP.Lex(Tok);
    if (Word == "kernel") {
      P.K = LoopyPragma::Kind::Kernel;
      return parseKernel(P);
    }
    if (Word == "shape") {
      P.K = LoopyPragma::Kind::Shape;
      return parseShape(P);
    }
    if (Word == "assume") {
      P.K = LoopyPragma::Kind::Assume;
      return parseAssume(P);
    }
    R.error(P.Loc, msg::UnknownPragma) << Word;
    return false;
  }

  void skipLine() {
    if (Tok.isNot(clang::tok::eod))
      PP.DiscardUntilEndOfDirective();
  }

private:
  bool parseKernel(LoopyPragma &P) {
    if (Tok.is(clang::tok::l_paren)) {
      PP.Lex(Tok);
      if (Tok.isNot(clang::tok::identifier))
        return fail(msg::PragmaKernelSyntax);
      P.Name = PP.getSpelling(Tok);
      PP.Lex(Tok);
      if (Tok.isNot(clang::tok::r_paren))
        return fail(msg::PragmaKernelSyntax);
      PP.Lex(Tok);
    }
    return Tok.is(clang::tok::eod) || fail(msg::PragmaKernelSyntax);
  }

  bool parseShape(LoopyPragma &P) {
    if (Tok.isNot(clang::tok::l_paren))
      return fail(msg::PragmaShapeSyntax);
    PP.Lex(Tok);
    if (Tok.isNot(clang::tok::identifier))
      return fail(msg::PragmaShapeSyntax);
    P.Array = {PP.getSpelling(Tok), Tok.getLocation()};
    PP.Lex(Tok);
    while (Tok.is(clang::tok::comma)) {
      PP.Lex(Tok);
      std::vector<PragmaToken> Extent;
      int Depth = 0;
      while (!Tok.is(clang::tok::eod) &&
             !(Depth == 0 && Tok.isOneOf(clang::tok::comma, clang::tok::r_paren))) {
        Depth += Tok.is(clang::tok::l_paren) - Tok.is(clang::tok::r_paren);
        Extent.push_back({PP.getSpelling(Tok), Tok.getLocation()});
        PP.Lex(Tok);
      }
      if (Extent.empty())
        return fail(msg::PragmaShapeSyntax);
      P.Extents.push_back(std::move(Extent));
    }
    if (Tok.isNot(clang::tok::r_paren) || P.Extents.empty())
      return fail(msg::PragmaShapeSyntax);
    PP.Lex(Tok);
    return Tok.is(clang::tok::eod) || fail(msg::PragmaShapeSyntax);
  }

  bool parseAssume(LoopyPragma &P) {
    if (Tok.isNot(clang::tok::l_paren))
      return fail(msg::PragmaAssumeSyntax);
    PP.Lex(Tok);
    std::vector<PragmaToken> Constraints;
    int Depth = 0;
    while (!Tok.is(clang::tok::eod) && !(Depth == 0 && Tok.is(clang::tok::r_paren))) {
      Depth += Tok.is(clang::tok::l_paren) - Tok.is(clang::tok::r_paren);
      Constraints.push_back({PP.getSpelling(Tok), Tok.getLocation()});
      PP.Lex(Tok);
    }
    if (Tok.isNot(clang::tok::r_paren) || Constraints.empty())
      return fail(msg::PragmaAssumeSyntax);
    P.Extents.push_back(std::move(Constraints));
    PP.Lex(Tok);
    return Tok.is(clang::tok::eod) || fail(msg::PragmaAssumeSyntax);
  }

  bool fail(const char *Format) {
    R.error(Tok.getLocation(), Format);
    return false;
  }

  clang::Preprocessor &PP;
  Reporter R;
  clang::Token Tok;
};

} // namespace

void LoopyPragmaHandler::HandlePragma(clang::Preprocessor &PP,
                                      clang::PragmaIntroducer Intro,
                                      clang::Token &First) {
  PragmaParser Parser(PP);
  LoopyPragma P;
  if (Parser.parse(P))
    Out.push_back(std::move(P));
  Parser.skipLine();
}

} // namespace loopy::extract
