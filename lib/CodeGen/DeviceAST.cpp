//===- DeviceAST.cpp - Sizes and launch text of device kernels ------------===//
#include "loopy/CodeGen/DeviceAST.h"

#include <algorithm>

namespace loopy::device {

bool DeviceKernel::usesHalf() const {
  return Half || std::any_of(Params.begin(), Params.end(),
                             [](const KernelParam &P) { return isHalf(P.Type); });
}

long Buffer::bytes() const {
  long N = dtypeSize(Type);
  for (long D : Dims)
    N *= D;
  return N;
}

std::vector<long> DeviceKernel::sharedOffsets() const {
  std::vector<long> Out;
  long Off = 0;
  for (const Buffer &B : Shared) {
    Out.push_back(Off);
    Off += dynamicSharedSlot(B.bytes());
  }
  return Out;
}

long DeviceKernel::sharedBytes() const {
  long N = 0;
  for (const Buffer &B : Shared)
    N += B.bytes();
  return N;
}

std::string DeviceKernel::launchLine() const {
  return "launch: grid (" + GridC[0] + ", " + GridC[1] + ", " + GridC[2] +
         "), block (" + std::to_string(BlockDim[0]) + ", " +
         std::to_string(BlockDim[1]) + ", " + std::to_string(BlockDim[2]) +
         ")" + (LaunchIf.empty() ? "" : " if " + LaunchIf);
}

} // namespace loopy::device
