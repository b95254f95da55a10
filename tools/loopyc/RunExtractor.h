//===- RunExtractor.h - C and C++ input through loopy-extract ---*- C++ -*-===//
//
// `loopyc FILE.cpp` runs loopy-extract, the C/C++ front end installed next
// to loopyc, on the file and compiles the .loop text it prints. loopyc
// itself links no Clang; the extractor is a program of its own.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TOOLS_RUNEXTRACTOR_H
#define LOOPY_TOOLS_RUNEXTRACTOR_H

#include "loopy/Support/Expected.h"

#include <iosfwd>
#include <string>

namespace loopy {

/// The name under which diagnostics show the lifted text.
inline constexpr const char *LiftedName = "<stdin>";

/// True if \p Path names a C or C++ source: .c, .cc, .cpp, .cxx or .C.
bool isCSource(const std::string &Path);

/// Runs loopy-extract on the C or C++ file \p Input, whose diagnostics go
/// straight to standard error, and returns the .loop text it prints. A
/// user Failure where the extractor reported errors (its message empty:
/// they were printed) or cannot be started; an internal one if it crashed.
Expected<std::string> liftCSource(const std::string &Input);

/// Says on \p Err that errors reported for LiftedName are in the text
/// lifted from \p Source.
void noteLiftedSource(const std::string &Source, std::ostream &Err);

} // namespace loopy

#endif
