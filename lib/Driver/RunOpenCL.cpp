//===- RunOpenCL.cpp - One lowered variant run through OpenCL -------------===//
#include "loopy/Driver/RunOpenCL.h"

#include "loopy/CodeGen/Launch.h"
#include "loopy/Compile/LaunchArgs.h"

#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopy {

using namespace device;

void runOnOpenCL(const cl::Device &Dev, const cl::Program &Prog,
                 const DeviceProgram &P, const Kernel &K, HostData &Data,
                 isl::ctx Ctx) {
  std::map<std::string, cl::Buffer> Bufs;
  for (auto &[Name, A] : Data.Arrays) {
    cl::Buffer B = Dev.allocate(A.byteSize());
    Dev.write(B, A.data(), A.byteSize());
    Bufs.emplace(Name, std::move(B));
  }
  for (const DeviceKernel &DK : P.Kernels) {
    auto Blocks = launchBlocks(Ctx, DK, Data.Params);
    if (!Blocks)
      throw std::invalid_argument(Blocks.failure().Message);
    std::array<long, 3> Grid = *Blocks;
    if (Grid[0] == 0 || Grid[1] == 0 || Grid[2] == 0)
      continue;
    auto Bound = bindLaunchArgs(DK, Data.Params, Data.Scalars);
    if (!Bound)
      throw std::invalid_argument(Bound.failure().Message);
    std::vector<cl::Arg> Args;
    for (LaunchArg &A : *Bound)
      Args.push_back(A.isArray() ? cl::Arg::buffer(Bufs.at(A.Param->Name))
                                 : cl::Arg{nullptr, std::move(A.Bytes)});
    size_t Groups[3], Local[3];
    for (int A = 0; A < 3; ++A) {
      Groups[A] = Grid[A];
      Local[A] = DK.BlockDim[A];
    }
    Dev.launch(Prog, DK.Name, Args, Groups, Local);
  }
  for (const Argument &A : K.Args)
    if (A.isArray() && A.Mode != ArgMode::In) {
      HostArray &H = Data.array(A.Name);
      Dev.read(Bufs.at(A.Name), H.data(), H.byteSize());
    }
}

} // namespace loopy
