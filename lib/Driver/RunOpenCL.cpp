//===- RunOpenCL.cpp - One lowered variant run through OpenCL -------------===//
#include "loopy/Driver/RunOpenCL.h"

#include "loopy/CodeGen/Launch.h"

#include <array>
#include <map>
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
    std::array<long, 3> Grid = launchGrid(Ctx, DK, Data.Params);
    if (Grid[0] == 0 || Grid[1] == 0 || Grid[2] == 0)
      continue;
    std::vector<cl::Arg> Args;
    for (const KernelParam &KP : DK.Params) {
      switch (KP.K) {
      case KernelParam::Kind::Index:
        Args.push_back(cl::Arg::value<int64_t>(Data.Params.at(KP.Name)));
        break;
      case KernelParam::Kind::Scalar:
        Args.push_back({nullptr, scalarArgBytes(KP.Type, Data.Scalars.at(KP.Name).Float,
                                                Data.Scalars.at(KP.Name).Int)});
        break;
      case KernelParam::Kind::InArray:
      case KernelParam::Kind::OutArray:
        Args.push_back(cl::Arg::buffer(Bufs.at(KP.Name)));
        break;
      }
    }
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
