//===- SourceManager.cpp - Source buffers and locations -------------------===//
#include "loopy/Support/SourceManager.h"

#include <algorithm>

namespace loopy {

SourceRange SourceRange::join(SourceRange Other) const {
  if (!isValid())
    return Other;
  if (!Other.isValid())
    return *this;
  return {std::min(Begin, Other.Begin), std::max(End, Other.End)};
}

SourceManager::SourceManager(std::string N, std::string T)
    : Name(std::move(N)), Text(std::move(T)) {
  LineStarts.push_back(0);
  for (uint32_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

LineCol SourceManager::lineCol(uint32_t Offset) const {
  Offset = std::min<uint32_t>(Offset, Text.size());
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  unsigned Line = It - LineStarts.begin();
  return {Line, Offset - LineStarts[Line - 1] + 1};
}

std::string_view SourceManager::lineText(unsigned Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return {};
  uint32_t B = LineStarts[Line - 1];
  uint32_t E = Line < LineStarts.size() ? LineStarts[Line] : Text.size();
  std::string_view S(Text.data() + B, E - B);
  while (!S.empty() && (S.back() == '\n' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

std::string_view SourceManager::slice(SourceRange R) const {
  if (!R.isValid() || R.Begin > Text.size())
    return {};
  uint32_t E = std::min<uint32_t>(R.End, Text.size());
  return std::string_view(Text.data() + R.Begin, E - R.Begin);
}

} // namespace loopy
