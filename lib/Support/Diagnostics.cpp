//===- Diagnostics.cpp - Clang-style diagnostics engine -------------------===//
#include "loopy/Support/Diagnostics.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <ostream>

namespace loopy {

DiagnosticEngine::DiagnosticEngine(const SourceManager *SM, std::ostream &OS,
                                   unsigned ErrorLimit)
    : SM(SM), OS(OS), ErrorLimit(ErrorLimit) {}

static std::atomic<ColorMode> DiagnosticColor{ColorMode::Auto};

void setDiagnosticColor(ColorMode M) { DiagnosticColor = M; }

/// Whether diagnostics on \p OS are coloured.
static bool useColor(const std::ostream &OS) {
  if (&OS != &std::cerr)
    return false;
  switch (DiagnosticColor.load()) {
  case ColorMode::Always:
    return true;
  case ColorMode::Never:
    return false;
  case ColorMode::Auto:
    break;
  }
  const char *NoColor = std::getenv("NO_COLOR");
  if (NoColor && *NoColor)
    return false;
  return ::isatty(STDERR_FILENO) == 1;
}

// clang's colours: the escape sequences of llvm::raw_ostream's bold colours.
namespace color {
const char *const Reset = "\033[0m";
const char *const Bold = "\033[1m";
const char *const Caret = "\033[0;1;32m"; // bold green
} // namespace color

static const char *severityColor(Severity S) {
  switch (S) {
  case Severity::Error:
    return "\033[0;1;31m"; // bold red
  case Severity::Warning:
    return "\033[0;1;35m"; // bold magenta
  case Severity::Note:
    return "\033[0;1;30m"; // bold black (grey)
  }
  return "";
}

static const char *severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

void DiagnosticEngine::report(Severity S, SourceRange R, const std::string &Msg) {
  bool C = useColor(OS);
  // WHERE: SEVERITY: MESSAGE, the parts in bold, the severity in colour.
  auto Head = [&](const std::string &Where) {
    if (!C) {
      OS << Where << ": " << severityName(S) << ": " << Msg << "\n";
      return;
    }
    OS << color::Bold << Where << ": " << severityColor(S) << severityName(S)
       << ": " << color::Reset << color::Bold << Msg << color::Reset << "\n";
  };
  if (!SM || !R.isValid()) {
    Head("loopyc");
  } else {
    LineCol LC = SM->lineCol(R.Begin);
    Head(SM->name() + ":" + std::to_string(LC.Line) + ":" +
         std::to_string(LC.Col));
    std::string_view Line = SM->lineText(LC.Line);
    OS << Line << "\n";
    // The caret line keeps the source's tabs so the caret lines up.
    std::string Caret;
    for (unsigned I = 0; I + 1 < LC.Col && I < Line.size(); ++I)
      Caret += Line[I] == '\t' ? '\t' : ' ';
    Caret += '^';
    // Underline the rest of the range that lies on this line.
    uint32_t LineEnd = R.Begin + (Line.size() - (LC.Col - 1));
    uint32_t End = std::min(R.End, LineEnd);
    for (uint32_t I = R.Begin + 1; I < End; ++I)
      Caret += '~';
    if (C)
      OS << color::Caret << Caret << color::Reset << "\n";
    else
      OS << Caret << "\n";
  }
  if (S == Severity::Error && ++Errors >= ErrorLimit) {
    OS << "loopyc: fatal error: too many errors emitted, stopping now\n";
    throw TooManyErrors{};
  }
}

std::string quote(std::string_view S) {
  return "'" + std::string(S) + "'";
}

} // namespace loopy
