//===- Plant.cpp - Planting known bugs in lowered code --------------------===//
#include "loopy/CodeGen/Plant.h"

#include <functional>

namespace loopy {

using namespace device;

bool isPlantableBug(const std::string &What) {
  return What == "drop-barrier" || What == "skip-first-iteration" ||
         What == "fault" || What == "hang";
}

/// A statement \p Text put first in every kernel of \p P.
static bool prependLine(DeviceProgram &P, const std::string &Text) {
  for (DeviceKernel &K : P.Kernels) {
    auto N = std::make_unique<Node>(Node::Kind::Line);
    N->Text = Text;
    K.Body.insert(K.Body.begin(), std::move(N));
  }
  return !P.Kernels.empty();
}

bool plantBug(DeviceProgram &P, const std::string &What) {
  if (What == "fault")
    return prependLine(
        P, "if (threadIdx.x == 0) *(volatile int *)16 = 1; // planted fault");
  if (What == "hang")
    // The sleep is a side effect, so the compiler may not drop the loop.
    return prependLine(P, "for (;;) __nanosleep(1000); // planted hang");
  std::function<bool(NodeList &)> Walk = [&](NodeList &L) -> bool {
    for (size_t I = 0; I < L.size(); ++I) {
      Node &N = *L[I];
      if (What == "drop-barrier" && N.K == Node::Kind::Barrier) {
        L.erase(L.begin() + I);
        return true;
      }
      if (What == "skip-first-iteration" && N.K == Node::Kind::For) {
        N.Cond = "(" + N.Cond + ") && " + N.Iter + " != " + N.Init;
        return true;
      }
      if (Walk(N.Body) || Walk(N.Else))
        return true;
    }
    return false;
  };
  for (DeviceKernel &K : P.Kernels)
    if (Walk(K.Body))
      return true;
  return false;
}

} // namespace loopy
