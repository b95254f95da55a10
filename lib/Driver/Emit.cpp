//===- Emit.cpp - The device-code outputs of loopyc -----------------------===//
#include "loopy/Driver/Emit.h"

#include "loopy/CodeGen/Lower.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Driver/CheckOpenCL.h"
#include "loopy/Driver/ParallelLower.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Runtime/Nvrtc.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <sstream>

namespace loopy {

std::string jsonString(const std::string &S) {
  std::string R = "\"";
  for (char C : S) {
    switch (C) {
    case '"':
      R += "\\\"";
      break;
    case '\\':
      R += "\\\\";
      break;
    case '\n':
      R += "\\n";
      break;
    case '\t':
      R += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        R += Buf;
      } else {
        R += C;
      }
    }
  }
  return R + "\"";
}

static const char *paramKind(device::KernelParam::Kind K) {
  switch (K) {
  case device::KernelParam::Kind::Index:
    return "index";
  case device::KernelParam::Kind::Scalar:
    return "scalar";
  case device::KernelParam::Kind::InArray:
    return "in";
  case device::KernelParam::Kind::OutArray:
    return "out";
  }
  return "?";
}

static std::string programJson(const device::DeviceProgram &P,
                               const Variant &V) {
  std::ostringstream OS;
  OS << "{\n  \"kernel\": " << jsonString(P.KernelName)
     << ",\n  \"schedule\": " << jsonString(P.Schedule)
     << ",\n  \"static_cost_s\": " << V.Cost << ",\n  \"launches\": [";
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const device::DeviceKernel &K = P.Kernels[I];
    OS << (I ? "," : "") << "\n    {\n      \"function\": " << jsonString(K.Name)
       << ",\n      \"arguments\": [";
    for (size_t A = 0; A < K.Params.size(); ++A)
      OS << (A ? ", " : "") << "{\"name\": " << jsonString(K.Params[A].Name)
         << ", \"kind\": \"" << paramKind(K.Params[A].K) << "\", \"type\": \""
         << dtypeName(K.Params[A].Type) << "\"}";
    OS << "],\n      \"block\": [" << K.BlockDim[0] << ", " << K.BlockDim[1]
       << ", " << K.BlockDim[2] << "],\n      \"grid\": [";
    for (int D = 0; D < 3; ++D)
      OS << (D ? ", " : "") << jsonString(K.GridC[D]);
    OS << "],\n      \"launch_if\": " << jsonString(K.LaunchIf.empty() ? "1" : K.LaunchIf)
       << ",\n      \"grid_isl\": [";
    for (int D = 0; D < 3; ++D)
      OS << (D ? ", " : "") << jsonString(K.GridIsl[D]);
    OS << "],\n      \"shared_bytes\": " << K.sharedBytes()
       << ",\n      \"dynamic_shared_bytes\": " << K.DynamicShared
       << ",\n      \"aligned_arrays\": {";
    for (size_t A = 0; A < K.Aligned.size(); ++A)
      OS << (A ? ", " : "") << jsonString(K.Aligned[A].first) << ": "
         << K.Aligned[A].second;
    OS << "}\n    }";
  }
  OS << "\n  ]\n}\n";
  return OS.str();
}

static PlannerOptions plannerOptions(const CompileOptions &Opts) {
  PlannerOptions PO;
  PO.MinThreads = Opts.MinThreads;
  PO.MinBlocks = Opts.MinBlocks;
  PO.MaxSharedBytes = Opts.MaxSharedBytes;
  return PO;
}

/// Positions of at most \p N of \p Size ranked variants, spread evenly and
/// always including the first.
static std::vector<size_t> sampleIndices(size_t Size, long N) {
  std::vector<size_t> R;
  if (N <= 0 || static_cast<size_t>(N) >= Size) {
    for (size_t I = 0; I < Size; ++I)
      R.push_back(I);
    return R;
  }
  for (long I = 0; I < N; ++I)
    R.push_back(static_cast<size_t>(I * (double)Size / N));
  return R;
}

/// --check=nvrtc: lower and compile sampled variants of every kernel, in
/// parallel; one line per failure and a summary.
static int checkNvrtc(const std::vector<Kernel> &Kernels,
                      const KernelSource &Src, const CompileOptions &Opts,
                      std::ostream &OS, DiagnosticEngine &Diags) {
  PlannerOptions PO = plannerOptions(Opts);
  unsigned Passed = 0, Failed = 0;
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const Kernel &K = Kernels[KI];
    if (K.Stmts.empty())
      continue;
    std::string Error;
    std::vector<Variant> Vs = planKernel(K, PO, Error);
    if (Vs.empty()) {
      Diags.error(K.Loc, "cannot schedule kernel " + quote(K.Name) + ": " + Error);
      return 1;
    }
    std::vector<size_t> Pick =
        sampleIndices(Vs.size(), Opts.AllVariants ? 0 : Opts.Sample);
    // Lowering and NVRTC both run on every core.
    std::vector<LoweredVariant> Lowered = lowerInParallel(Src, KI, Vs, Pick);
    std::vector<std::string> Sources(Pick.size()), Problems(Pick.size());
    for (size_t I = 0; I < Pick.size(); ++I) {
      if (!Lowered[I].Program)
        Problems[I] = "lowering failed: " + Lowered[I].Error;
      else
        Sources[I] = printProgram(*Lowered[I].Program, Dialect::CUDA);
    }
    std::atomic<size_t> Next = 0;
    auto Work = [&] {
      for (size_t I; (I = Next++) < Pick.size();) {
        if (!Problems[I].empty())
          continue;
        NvrtcResult R = compileCuda(Sources[I], K.Name + ".cu", Opts.Arch, true);
        if (!R.Ok)
          Problems[I] = "NVRTC: " + R.Log.substr(0, R.Log.find('\n'));
      }
    };
    runOnWorkers(0, Work);
    unsigned KP = 0;
    for (size_t I = 0; I < Pick.size(); ++I) {
      if (Problems[I].empty()) {
        ++KP;
        continue;
      }
      OS << "FAIL " << K.Name << " #" << Pick[I] << " " << Vs[Pick[I]].Name
         << ": " << Problems[I] << "\n";
    }
    OS << K.Name << ": " << KP << " of " << Pick.size() << " sampled variants (of "
       << Vs.size() << ") compiled for " << Opts.Arch << "\n";
    Passed += KP;
    Failed += Pick.size() - KP;
  }
  OS << Passed << " passed, " << Failed << " failed\n";
  return Failed ? 1 : 0;
}

int emitDeviceCode(const std::vector<Kernel> &Kernels,
                   const KernelSource &Src, const CompileOptions &Opts,
                   std::string &Out, DiagnosticEngine &Diags) {
  std::ostringstream OS;
  if (Opts.CheckNvrtc || Opts.CheckOpenCL) {
    int Status = Opts.CheckOpenCL ? checkOpenCL(Kernels, Src, Opts, OS, Diags)
                                  : checkNvrtc(Kernels, Src, Opts, OS, Diags);
    Out += OS.str();
    return Status;
  }
  PlannerOptions PO = plannerOptions(Opts);
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const Kernel &K = Kernels[KI];
    if (K.Stmts.empty())
      continue;
    std::string Error;
    std::vector<Variant> Vs;
    // A variant given by its schedule needs no enumeration.
    bool ByName = !Opts.Variant.empty() &&
                  !std::all_of(Opts.Variant.begin(), Opts.Variant.end(), ::isdigit);
    if (!ByName || Opts.Emit == EmitKind::Variants) {
      Vs = planKernel(K, PO, Error);
      if (Vs.empty()) {
        Diags.error(K.Loc, "cannot schedule kernel " + quote(K.Name) + ": " +
                               Error);
        return 1;
      }
    }
    if (Opts.Emit == EmitKind::Variants) {
      OS << "# kernel " << K.Name << ": " << Vs.size()
         << " variants, best first by the static cost model\n";
      for (size_t I = 0; I < Vs.size(); ++I) {
        const Variant &V = Vs[I];
        OS << I << "\t" << V.Name;
        for (const Figures &F : V.Stats)
          OS << "\tthreads=" << F.Threads << " blocks=" << F.Blocks
             << " shared=" << F.SharedBytes
             << " outputs/thread=" << F.RegisterOutputs;
        char Buf[32];
        std::snprintf(Buf, sizeof Buf, "%.3g", V.Cost);
        OS << " cost=" << Buf << "\n";
      }
      continue;
    }
    if (Opts.AllVariants && Opts.Emit != EmitKind::PTX) {
      // Every variant, in ranked order, each under a one-line banner.
      std::vector<LoweredVariant> Lowered =
          lowerInParallel(Src, KI, Vs, sampleIndices(Vs.size(), 0));
      for (size_t I = 0; I < Vs.size(); ++I) {
        const auto &P = Lowered[I].Program;
        if (!P) {
          Diags.error("cannot lower variant " + quote(Vs[I].Name) +
                      " of kernel " + quote(K.Name) + ": " + Lowered[I].Error);
          return 1;
        }
        OS << "// ===== variant " << I << ": " << Vs[I].Name << "\n";
        OS << (Opts.Emit == EmitKind::JSON ? programJson(*P, Vs[I])
               : Opts.Emit == EmitKind::OpenCL
                   ? printProgram(*P, Dialect::OpenCL)
                   : printProgram(*P, Dialect::CUDA));
      }
      continue;
    }
    std::optional<Variant> V;
    if (Opts.Variant.empty())
      V = Vs.front();
    else
      V = findVariant(K, Vs, Opts.Variant, Error);
    if (!V) {
      Diags.error("--variant=" + Opts.Variant + ": " + Error);
      return 1;
    }
    auto P = lowerKernel(K, V->Schedules);
    if (!P) {
      Diags.error("cannot lower variant " + quote(V->Name) + " of kernel " +
                  quote(K.Name) + ": " + P.failure().Message);
      return 1;
    }
    if (Opts.Emit == EmitKind::JSON) {
      OS << programJson(*P, *V);
      continue;
    }
    if (Opts.Emit == EmitKind::OpenCL) {
      OS << printProgram(*P, Dialect::OpenCL);
      continue;
    }
    std::string Cuda = printProgram(*P, Dialect::CUDA);
    if (Opts.Emit == EmitKind::CUDA) {
      OS << Cuda;
      continue;
    }
    NvrtcResult R = compileCuda(Cuda, K.Name + ".cu", Opts.Arch, false);
    if (!R.Ok) {
      Diags.error("NVRTC failed to compile variant " + quote(V->Name) +
                  " of kernel " + quote(K.Name) + " for " + Opts.Arch +
                  ":\n" + R.Log);
      return 2;
    }
    OS << R.Output;
  }
  Out += OS.str();
  return 0;
}

} // namespace loopy
