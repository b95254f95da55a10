//===- RunExtractor.h - C and C++ input through loopy-extract ---*- C++ -*-===//
//
// `loopyc FILE.cpp` runs loopy-extract, the C/C++ front end installed next
// to loopyc, on the file and compiles the .loop text it prints. loopyc
// itself links no Clang; the extractor is a program of its own.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_TOOLS_RUNEXTRACTOR_H
#define LOOPY_TOOLS_RUNEXTRACTOR_H

#include <iosfwd>
#include <string>

namespace loopy {

/// True if \p Path names a C or C++ source: .c, .cc, .cpp, .cxx or .C.
bool isCSource(const std::string &Path);

/// Runs loopy-extract on the C or C++ file \p Input, whose diagnostics go
/// straight to standard error, and makes the .loop text it prints the
/// standard input of this process; \p Input becomes "-". Returns the exit
/// status for a failure (1, or 2 if the extractor crashed), after a
/// message on \p Err where the extractor gave none; 0 on success.
int liftCSource(std::string &Input, std::ostream &Err);

/// Says on \p Err that errors reported for `<stdin>` are in the text
/// lifted from \p Source.
void noteLiftedSource(const std::string &Source, std::ostream &Err);

} // namespace loopy

#endif
