//===- Nvrtc.h - Compiling generated CUDA with NVRTC ------------*- C++ -*-===//
//
// NVRTC needs no GPU, so every variant can be compiled (to PTX or CUBIN) on
// any machine with the CUDA toolkit.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_RUNTIME_NVRTC_H
#define LOOPY_RUNTIME_NVRTC_H

#include <string>
#include <vector>

namespace loopy {

struct NvrtcResult {
  bool Ok = false;
  std::string Output; // PTX text or CUBIN bytes
  std::string Log;    // NVRTC's log (warnings and errors)
};

/// Compiles \p Source for \p Arch ("sm_90"); \p Cubin selects CUBIN over PTX.
NvrtcResult compileCuda(const std::string &Source, const std::string &Name,
                        const std::string &Arch, bool Cubin);

/// The options compileCuda passes besides the architecture (part of the
/// key of a cached compilation).
std::vector<std::string> nvrtcOptions();

/// NVRTC's version as "major.minor".
std::string nvrtcVersionString();

} // namespace loopy

#endif
