//===- IslText.cpp - isl set text embedded in .loop files -----------------===//
//
// Domains and assumptions are written in isl's own notation and handed to
// isl's parser verbatim. isl's parser says only "syntax error", so before
// blaming isl we look for the commonest mistake ourselves, an identifier
// that is not declared, and point at it.
//
//===----------------------------------------------------------------------===//
#include "SemaInternal.h"
#include "loopy/Support/Isl.h"

#include <cctype>

namespace loopy::sema {

static const std::set<std::string> &islKeywords() {
  static const std::set<std::string> K = {
      "and", "or",    "not",   "mod",  "floor", "ceil", "exists", "min",
      "max", "true",  "false", "implies", "infty", "NaN", "xor", "rat",
      "cst"};
  return K;
}

namespace {
struct Word {
  std::string Text;
  uint32_t Offset;
};
} // namespace

/// \p S on one line: white space runs (line breaks of a long domain)
/// become one blank.
static std::string foldSpace(std::string_view S) {
  std::string Out;
  for (char C : S) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      if (!Out.empty() && Out.back() != ' ')
        Out += ' ';
      continue;
    }
    Out += C;
  }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out;
}

/// True if a .loop comment ('#' or '//') starts at \p I of \p Text.
static bool isCommentStart(std::string_view Text, size_t I) {
  return Text[I] == '#' ||
         (Text[I] == '/' && I + 1 < Text.size() && Text[I + 1] == '/');
}

/// Splits isl text into identifiers and single punctuation characters,
/// skipping comments.
static std::vector<Word> islWords(std::string_view Text, uint32_t Base) {
  std::vector<Word> Words;
  for (uint32_t I = 0; I < Text.size();) {
    char C = Text[I];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
    } else if (isCommentStart(Text, I)) {
      while (I < Text.size() && Text[I] != '\n')
        ++I;
    } else if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      uint32_t B = I;
      while (I < Text.size() &&
             (std::isalnum(static_cast<unsigned char>(Text[I])) ||
              Text[I] == '_' || Text[I] == '\''))
        ++I;
      Words.push_back({std::string(Text.substr(B, I - B)), Base + B});
    } else if (std::isdigit(static_cast<unsigned char>(C))) {
      while (I < Text.size() && std::isalnum(static_cast<unsigned char>(Text[I])))
        ++I;
    } else {
      Words.push_back({std::string(1, C), Base + I});
      ++I;
    }
  }
  return Words;
}

/// Reports the first integer constant of \p Clean (the text at \p Base)
/// beyond 2^53, the bound that subscripts and extents have too: witnesses
/// in later messages must fit a machine integer. False if there is one.
static bool checkConstantsFit(const std::string &Clean, uint32_t Base,
                              const std::string &What,
                              DiagnosticEngine &Diags) {
  for (size_t I = 0; I < Clean.size(); ++I) {
    auto IsWordChar = [](char C) {
      return std::isalnum(static_cast<unsigned char>(C)) || C == '_' ||
             C == '\'';
    };
    if (!std::isdigit(static_cast<unsigned char>(Clean[I])) ||
        (I > 0 && IsWordChar(Clean[I - 1])))
      continue;
    size_t E = I;
    while (E < Clean.size() &&
           std::isdigit(static_cast<unsigned char>(Clean[E])))
      ++E;
    size_t First = Clean.find_first_not_of('0', I);
    std::string Digits =
        First < E ? Clean.substr(First, E - First) : std::string("0");
    if (Digits.size() > 16 ||
        (Digits.size() == 16 && Digits > "9007199254740992")) {
      Diags.error(
          {Base + static_cast<uint32_t>(I), Base + static_cast<uint32_t>(E)},
          "integer constant " + quote(Clean.substr(I, E - I)) + " in the " +
              What + " is too large; constants must lie within 2^53");
      return false;
    }
    I = E;
  }
  return true;
}

std::optional<isl::set> parseIslText(isl::ctx Ctx, const SourceManager &SM,
                                     SourceRange Range,
                                     const std::string &Prefix,
                                     const std::string &Suffix,
                                     const std::set<std::string> &Known,
                                     const std::string &What,
                                     DiagnosticEngine &Diags) {
  std::string_view Text = SM.slice(Range);
  // isl's reader knows no comments; blank them out ('#' and '//', as in
  // the rest of the file).
  std::string Clean(Text);
  for (size_t I = 0; I < Clean.size(); ++I)
    if (isCommentStart(Clean, I))
      while (I < Clean.size() && Clean[I] != '\n')
        Clean[I++] = ' ';
  if (!checkConstantsFit(Clean, Range.Begin, What, Diags))
    return std::nullopt;

  std::string Error;
  if (auto S = parseSet(Ctx, Prefix + Clean + Suffix, Error))
    return S;

  // Find identifiers declared by the text itself: tuple variables
  // ("[i, j]") and existential variables ("exists (e0, e1: ...)").
  std::vector<Word> Words = islWords(Text, Range.Begin);
  std::set<std::string> Declared;
  for (size_t I = 0; I < Words.size(); ++I) {
    if (Words[I].Text == "[") {
      for (size_t J = I + 1; J < Words.size() && Words[J].Text != "]"; ++J)
        Declared.insert(Words[J].Text);
    } else if (Words[I].Text == "exists") {
      for (size_t J = I + 1; J < Words.size() && Words[J].Text != ":"; ++J)
        Declared.insert(Words[J].Text);
    }
  }
  bool Reported = false;
  std::vector<std::string> Candidates(Known.begin(), Known.end());
  Candidates.insert(Candidates.end(), Declared.begin(), Declared.end());
  for (const Word &W : Words) {
    if (!(std::isalpha(static_cast<unsigned char>(W.Text[0])) || W.Text[0] == '_'))
      continue;
    if (Known.count(W.Text) || Declared.count(W.Text) ||
        islKeywords().count(W.Text))
      continue;
    std::string Msg = "use of undeclared identifier " + quote(W.Text) +
                      " in the " + What;
    if (auto C = closestName(W.Text, Candidates))
      Msg += "; did you mean " + quote(*C) + "?";
    else
      Msg += "; declare it as a kernel parameter such as '" + W.Text +
             ": index'";
    Diags.error({W.Offset, W.Offset + static_cast<uint32_t>(W.Text.size())},
                Msg);
    Reported = true;
  }
  if (!Reported)
    Diags.error(Range, "invalid " + What + ": isl cannot parse " +
                           quote(foldSpace(Clean)) + " (" + Error +
                           "); write it in isl set notation, such as " +
                           (What == "assumption"
                                ? "'n >= 1 and n mod 16 = 0'"
                                : "'{ [i, j] : 0 <= i < n and 0 <= j <= i }'"));
  return std::nullopt;
}

} // namespace loopy::sema
