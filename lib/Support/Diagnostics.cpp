//===- Diagnostics.cpp - Clang-style diagnostics engine -------------------===//
#include "loopy/Support/Diagnostics.h"

#include <ostream>

namespace loopy {

DiagnosticEngine::DiagnosticEngine(const SourceManager *SM, std::ostream &OS,
                                   unsigned ErrorLimit)
    : SM(SM), OS(OS), ErrorLimit(ErrorLimit) {}

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
  if (!SM || !R.isValid()) {
    OS << "loopyc: " << severityName(S) << ": " << Msg << "\n";
  } else {
    LineCol LC = SM->lineCol(R.Begin);
    OS << SM->name() << ":" << LC.Line << ":" << LC.Col << ": "
       << severityName(S) << ": " << Msg << "\n";
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
