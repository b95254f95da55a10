//===- Plant.cpp - Planting known bugs in lowered code --------------------===//
#include "loopy/CodeGen/Plant.h"

#include <algorithm>
#include <functional>

namespace loopy {

using namespace device;

bool isPlantableBug(const std::string &What) {
  return What == "drop-barrier" || What == "skip-first-iteration" ||
         What == "fault" || What == "hang" || What == "skip-thread-0";
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

/// Whether \p Text stores to the output array \p Name: as `Name[...] =`
/// or through a pointer `&Name[...]` (atomics, half-precision stores).
static bool storesTo(const std::string &Text, const std::string &Name) {
  return Text.rfind(Name + "[", 0) == 0 ||
         Text.find("&" + Name + "[") != std::string::npos;
}

/// Wraps every store to an output array in \p L in `if (Cond)`; whether
/// there was one.
static bool guardStores(NodeList &L, const std::vector<KernelParam> &Params,
                        const std::string &Cond) {
  bool Any = false;
  for (NodePtr &N : L) {
    if (N->K == Node::Kind::Line &&
        std::any_of(Params.begin(), Params.end(), [&](const KernelParam &Pm) {
          return Pm.K == KernelParam::Kind::OutArray &&
                 storesTo(N->Text, Pm.Name);
        })) {
      auto If = std::make_unique<Node>(Node::Kind::If);
      If->Cond = Cond;
      If->Body.push_back(std::move(N));
      N = std::move(If);
      Any = true;
      continue;
    }
    Any = guardStores(N->Body, Params, Cond) | Any;
    Any = guardStores(N->Else, Params, Cond) | Any;
  }
  return Any;
}

bool plantBug(DeviceProgram &P, const std::string &What) {
  if (What == "skip-thread-0") {
    // Thread 0 of block 0 is the one whose bound coordinates are all 0
    // (an axis the kernel does not bind has one coordinate); the names are
    // the same in both dialects.
    bool Any = false;
    for (DeviceKernel &K : P.Kernels) {
      std::string Sum;
      for (const IdBinding &Id : K.Ids)
        Sum += (Sum.empty() ? "" : " + ") + Id.Name;
      std::string Cond =
          Sum.empty() ? "0 /* planted */" : Sum + " != 0 /* planted */";
      Any = guardStores(K.Body, K.Params, Cond) | Any;
    }
    return Any;
  }
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
