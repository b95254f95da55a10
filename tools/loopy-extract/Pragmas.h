//===- Pragmas.h - #pragma loopy kernel / shape / assume --------*- C++ -*-===//
//
// The preprocessor hands every `#pragma loopy ...` line to a
// LoopyPragmaHandler, which parses it and records it with its location;
// the pragmas are matched to the functions and loops they mark once the
// whole file is parsed (Targets.h). Syntax errors are reported here.
//
//   #pragma loopy kernel              the next function or `for` loop
//   #pragma loopy kernel(NAME)        ... lifted as kernel NAME
//   #pragma loopy shape(a, n, m)      array a of that kernel is n x m
//   #pragma loopy assume(k <= m)      the kernel may assume k <= m
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_PRAGMAS_H
#define LOOPY_EXTRACT_PRAGMAS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <string>
#include <vector>

namespace loopy::extract {

struct PragmaToken {
  std::string Text;
  clang::SourceLocation Loc;
};

struct LoopyPragma {
  enum class Kind { Kernel, Shape, Assume };
  Kind K = Kind::Kernel;
  /// The word after `loopy`: 'kernel', 'shape' or 'assume'.
  clang::SourceLocation Loc;
  /// kernel(NAME): the name; empty for a plain `kernel`.
  std::string Name;
  /// shape(ARRAY, EXTENT, ...): the array and one token list per extent;
  /// assume(CONSTRAINTS): the constraints, as the one token list.
  PragmaToken Array;
  std::vector<std::vector<PragmaToken>> Extents;
};

class LoopyPragmaHandler : public clang::PragmaHandler {
public:
  explicit LoopyPragmaHandler(std::vector<LoopyPragma> &Out)
      : clang::PragmaHandler("loopy"), Out(Out) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Intro,
                    clang::Token &First) override;

private:
  std::vector<LoopyPragma> &Out;
};

} // namespace loopy::extract

#endif
