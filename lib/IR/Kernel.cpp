//===- Kernel.cpp - The Kernel IR -----------------------------------------===//
#include "loopy/IR/Kernel.h"

#include <algorithm>

namespace loopy {

const char *argModeName(ArgMode M) {
  switch (M) {
  case ArgMode::In:
    return "in";
  case ArgMode::Out:
    return "out";
  case ArgMode::InOut:
    return "inout";
  }
  return "?";
}

const char *binaryOpSpelling(BinaryOp Op) {
  static const char *Names[] = {"+", "-", "*",  "/",  "%",  "<",  "<=",
                                ">", ">=", "==", "!=", "&&", "||"};
  return Names[static_cast<int>(Op)];
}

const char *mathFnName(MathFn F) {
  static const char *Names[] = {"sqrt", "exp", "log", "sin", "cos", "tanh",
                                "abs",  "pow", "fma", "min", "max"};
  return Names[static_cast<int>(F)];
}

const char *reduceOpName(ReduceOp Op) {
  static const char *Names[] = {"sum", "prod", "max", "min"};
  return Names[static_cast<int>(Op)];
}

int Statement::tuplePos(unsigned Index) const {
  auto It = std::find(Indices.begin(), Indices.end(), Index);
  return It == Indices.end() ? -1 : It - Indices.begin();
}

const Argument *Kernel::findArg(const std::string &N) const {
  for (const Argument &A : Args)
    if (A.Name == N)
      return &A;
  return nullptr;
}

} // namespace loopy
