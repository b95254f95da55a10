//===- Diagnostics.h - Clang-style diagnostics engine -----------*- C++ -*-===//
//
// Every user-facing error goes through one DiagnosticEngine, which prints
// `file:line:col: error: message`, the source line and a caret under the
// offending range. Messages start lower-case and carry no trailing period.
// On a terminal they take clang's colours (setDiagnosticColor).
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_DIAGNOSTICS_H
#define LOOPY_SUPPORT_DIAGNOSTICS_H

#include "loopy/Support/SourceManager.h"

#include <iosfwd>
#include <string>

namespace loopy {

enum class Severity { Error, Warning, Note };

/// Thrown once too many errors were reported, to stop the pipeline early.
struct TooManyErrors {};

class DiagnosticEngine {
public:
  /// \p SM may be null for diagnostics that concern no source text (options).
  DiagnosticEngine(const SourceManager *SM, std::ostream &OS,
                   unsigned ErrorLimit = 20);

  void error(SourceRange R, const std::string &Msg) {
    report(Severity::Error, R, Msg);
  }
  void warning(SourceRange R, const std::string &Msg) {
    report(Severity::Warning, R, Msg);
  }
  void note(SourceRange R, const std::string &Msg) {
    report(Severity::Note, R, Msg);
  }
  /// An error that concerns no source location (a command-line option, say).
  void error(const std::string &Msg) { report(Severity::Error, {}, Msg); }

  void report(Severity S, SourceRange R, const std::string &Msg);

  unsigned errorCount() const { return Errors; }
  bool hasErrors() const { return Errors != 0; }
  const SourceManager *sourceManager() const { return SM; }

private:
  const SourceManager *SM;
  std::ostream &OS;
  unsigned ErrorLimit;
  unsigned Errors = 0;
};

/// When diagnostics written to standard error take clang's colours (bold
/// location and message, red errors, magenta warnings, green caret).
enum class ColorMode {
  Auto,   // where standard error is a terminal and NO_COLOR is unset or empty
  Always, // also into pipes and files
  Never,
};
/// Sets the colour mode of every DiagnosticEngine writing to std::cerr
/// (loopyc's --color); Auto until set. Other streams are never coloured.
void setDiagnosticColor(ColorMode M);

/// Quotes \p S for a message: 'S'.
std::string quote(std::string_view S);

} // namespace loopy

#endif
