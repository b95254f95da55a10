//===- Nvrtc.cpp - Compiling generated CUDA with NVRTC --------------------===//
#include "loopy/Runtime/Nvrtc.h"

#include <nvrtc.h>

#include <memory>
#include <vector>

namespace loopy {

std::vector<std::string> nvrtcOptions() {
  // 177: a helper of the prelude that this kernel does not use.
  return {"--std=c++17", "-default-device", "-diag-suppress=177"};
}

NvrtcResult compileCuda(const std::string &Source, const std::string &Name,
                        const std::string &Arch, bool Cubin) {
  NvrtcResult R;
  nvrtcProgram Prog;
  nvrtcResult E = nvrtcCreateProgram(&Prog, Source.c_str(), Name.c_str(), 0,
                                     nullptr, nullptr);
  if (E != NVRTC_SUCCESS) {
    R.Log = std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(E);
    return R;
  }
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram *)> Guard(
      &Prog, [](nvrtcProgram *P) { nvrtcDestroyProgram(P); });
  std::string ArchOpt = "--gpu-architecture=" +
                        (Cubin ? Arch : "compute_" + Arch.substr(Arch.find('_') + 1));
  std::vector<std::string> Extra = nvrtcOptions();
  std::vector<const char *> Opts = {ArchOpt.c_str()};
  for (const std::string &O : Extra)
    Opts.push_back(O.c_str());
  E = nvrtcCompileProgram(Prog, Opts.size(), Opts.data());
  size_t LogSize = 0;
  nvrtcGetProgramLogSize(Prog, &LogSize);
  if (LogSize > 1) {
    R.Log.resize(LogSize);
    nvrtcGetProgramLog(Prog, R.Log.data());
    R.Log.pop_back(); // the terminating NUL
  }
  if (E != NVRTC_SUCCESS)
    return R;
  size_t Size = 0;
  if (Cubin) {
    nvrtcGetCUBINSize(Prog, &Size);
    R.Output.resize(Size);
    nvrtcGetCUBIN(Prog, R.Output.data());
  } else {
    nvrtcGetPTXSize(Prog, &Size);
    R.Output.resize(Size);
    nvrtcGetPTX(Prog, R.Output.data());
    if (!R.Output.empty() && R.Output.back() == '\0')
      R.Output.pop_back();
  }
  R.Ok = true;
  return R;
}

std::string nvrtcVersionString() {
  int Major = 0, Minor = 0;
  nvrtcVersion(&Major, &Minor);
  return std::to_string(Major) + "." + std::to_string(Minor);
}

} // namespace loopy
