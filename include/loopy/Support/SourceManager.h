//===- SourceManager.h - Source buffers and locations -----------*- C++ -*-===//
//
// A source buffer with its name, and the mapping from byte offsets to
// line/column positions that diagnostics print.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SUPPORT_SOURCEMANAGER_H
#define LOOPY_SUPPORT_SOURCEMANAGER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loopy {

/// A half-open byte range [Begin, End) in the one buffer of a SourceManager.
/// An invalid range (Begin == npos) means "no location".
struct SourceRange {
  static constexpr uint32_t npos = UINT32_MAX;
  uint32_t Begin = npos;
  uint32_t End = npos;

  SourceRange() = default;
  SourceRange(uint32_t B, uint32_t E) : Begin(B), End(E) {}
  bool isValid() const { return Begin != npos; }
  /// The smallest range covering both.
  SourceRange join(SourceRange Other) const;
};

/// 1-based line and column of an offset.
struct LineCol {
  unsigned Line = 0;
  unsigned Col = 0;
};

/// Owns one source text and its display name ("<stdin>" for standard input).
class SourceManager {
public:
  SourceManager(std::string Name, std::string Text);

  const std::string &name() const { return Name; }
  const std::string &text() const { return Text; }
  LineCol lineCol(uint32_t Offset) const;
  /// The text of the 1-based line, without its newline.
  std::string_view lineText(unsigned Line) const;
  std::string_view slice(SourceRange R) const;

private:
  std::string Name;
  std::string Text;
  std::vector<uint32_t> LineStarts;
};

} // namespace loopy

#endif
