//===- Json.cpp - JSON documents of loopyc's outputs ----------------------===//
#include "loopy/Driver/Json.h"

#include <algorithm>

namespace loopy {

namespace {

/// Levels of containers in \p J: 0 for a scalar, 1 for a container of
/// scalars (or an empty one), and so on.
int height(const Json &J) {
  if (!J.is_structured())
    return 0;
  int H = 0;
  for (const Json &E : J)
    H = std::max(H, height(E));
  return H + 1;
}

void print(const Json &J, std::string &Out, unsigned Indent) {
  if (!J.is_structured()) {
    Out += J.dump();
    return;
  }
  bool Object = J.is_object();
  Out += Object ? "{" : "[";
  if (J.empty()) {
    Out += Object ? "}" : "]";
    return;
  }
  // One line for up to two levels: [1, 2] or [{"name": "a", ...}, ...];
  // the document itself goes one member per line, so that an array of
  // rows reads one row per line.
  bool Inline = Indent > 0 && height(J) <= 2;
  std::string Inner(Inline ? 0 : Indent + 2, ' ');
  bool First = true;
  for (auto It = J.begin(); It != J.end(); ++It) {
    Out += First ? "" : ",";
    First = false;
    Out += Inline ? (Out.back() == ',' ? " " : "") : "\n" + Inner;
    if (Object)
      Out += Json(It.key()).dump() + ": ";
    print(*It, Out, Indent + (Inline ? 0 : 2));
  }
  if (!Inline)
    Out += "\n" + std::string(Indent, ' ');
  Out += Object ? "}" : "]";
}

} // namespace

std::string printJson(const Json &J) {
  std::string Out;
  print(J, Out, 0);
  return Out;
}

} // namespace loopy
