//===- Emit.cpp - The device-code outputs of loopyc -----------------------===//
#include "loopy/Driver/Emit.h"

#include "loopy/CodeGen/Printer.h"
#include "loopy/Support/Parallel.h"
#include "loopy/Driver/CheckOpenCL.h"
#include "loopy/Driver/Json.h"
#include "loopy/Planner/Planner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ostream>

namespace loopy {

namespace {

const char *paramKind(device::KernelParam::Kind K) {
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

/// \p V to six significant digits, as the listing of variants gives it.
double sixDigits(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return std::strtod(Buf, nullptr);
}

/// The launch metadata of \p P (variant \p V) for --emit=json.
Json programJson(const device::DeviceProgram &P, const Variant &V) {
  Json Launches = Json::array();
  for (const device::DeviceKernel &K : P.Kernels) {
    Json Args = Json::array();
    for (const device::KernelParam &KP : K.Params) {
      Args.push_back(Json{{"name", KP.Name},
                          {"kind", paramKind(KP.K)},
                          {"type", dtypeName(KP.Type)}});
      // A temporary of a split reduction: the launcher allocates it.
      if (KP.Temporary) {
        Args.back()["temporary"] = true;
        Args.back()["extents"] = KP.Extents;
      }
    }
    Json Aligned = Json::object();
    for (const auto &[Name, Bytes] : K.Aligned)
      Aligned[Name] = Bytes;
    Launches.push_back(Json{
        {"function", K.Name},
        {"arguments", std::move(Args)},
        {"block", {K.BlockDim[0], K.BlockDim[1], K.BlockDim[2]}},
        {"grid", {K.GridC[0], K.GridC[1], K.GridC[2]}},
        {"launch_if", K.LaunchIf.empty() ? "1" : K.LaunchIf},
        {"grid_isl", {K.GridIsl[0], K.GridIsl[1], K.GridIsl[2]}},
        {"shared_bytes", K.sharedBytes()},
        {"dynamic_shared_bytes", K.DynamicShared},
        {"aligned_arrays", std::move(Aligned)}});
  }
  return Json{{"kernel", P.KernelName},
              {"schedule", P.Schedule},
              {"static_cost_s", sixDigits(V.Cost)},
              {"launches", std::move(Launches)}};
}

/// The row of variant \p V, ranked \p Rank, of \p K for --emit=variants
/// --format=json.
Json variantJson(const Kernel &K, const Variant &V, size_t Rank) {
  Json Statements = Json::array();
  for (const Figures &F : V.Stats) {
    Json Grid = Json::array();
    for (long B : F.GridBlocks)
      Grid.push_back(B < 0 ? Json() : Json(B));
    Statements.push_back(Json{{"threads", F.Threads},
                              {"blocks", F.Blocks},
                              {"grid_blocks", std::move(Grid)},
                              {"shared_bytes", F.SharedBytes},
                              {"outputs_per_thread", F.RegisterOutputs}});
  }
  return Json{{"kernel", K.Name},
              {"rank", Rank},
              {"schedule", V.Name},
              {"static_cost_s", sixDigits(V.Cost)},
              {"statements", std::move(Statements)}};
}

/// Positions of at most \p N of \p Size ranked variants, spread evenly and
/// always including the first.
std::vector<size_t> sampleIndices(size_t Size, long N) {
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

/// Reports \p F on \p Diags (at \p Loc where it has no place of its own)
/// and returns it as reported.
Failure report(DiagnosticEngine &Diags, SourceRange Loc, Failure F,
               const std::string &Context = "") {
  if (!F.Message.empty())
    Diags.error(Loc, Context + F.Message);
  F.Message.clear();
  return F;
}

/// --check=nvrtc: lower and compile sampled variants of every kernel, in
/// parallel; one line per failure and a summary.
Status checkNvrtc(const CheckedSource &C, const CompileOptions &Opts,
                  std::ostream &OS, DiagnosticEngine &Diags) {
  unsigned Passed = 0, Failed = 0;
  Json Rows = Json::array(); // --format=json
  for (size_t KI = 0; KI < C.kernels().size(); ++KI) {
    const Kernel &K = C.kernels()[KI];
    if (K.Stmts.empty())
      continue;
    auto Planned = planVariants(C, KI, Opts.Planner, Opts.Jobs);
    if (!Planned)
      return report(Diags, K.Loc, Planned.takeFailure());
    const std::vector<Variant> &Vs = *Planned;
    std::vector<size_t> Pick =
        sampleIndices(Vs.size(), Opts.AllVariants ? 0 : Opts.Sample);
    // Lowering and NVRTC both run on every core.
    auto Lowered = lowerVariants(C, KI, Vs, Pick, Opts.Jobs);
    std::vector<std::string> Sources(Pick.size()), Problems(Pick.size());
    for (size_t I = 0; I < Pick.size(); ++I) {
      if (!Lowered[I])
        Problems[I] = "lowering failed: " + Lowered[I].failure().Message;
      else
        Sources[I] = printProgram(*Lowered[I], Dialect::CUDA);
    }
    parallelFor(Pick.size(), Opts.Jobs, [&](size_t I) {
      if (!Problems[I].empty())
        return;
      auto R = compileVariant(Sources[I], K.Name + ".cu", Opts.Arch, true);
      if (!R) {
        const std::string &Log = R.failure().Message;
        Problems[I] = "NVRTC: " + Log.substr(0, Log.find('\n'));
      }
    });
    unsigned KP = 0;
    for (size_t I = 0; I < Pick.size(); ++I) {
      KP += Problems[I].empty();
      if (Opts.FormatJson) {
        Json Row{{"kernel", K.Name},
                 {"rank", Pick[I]},
                 {"schedule", Vs[Pick[I]].Name},
                 {"passed", Problems[I].empty()},
                 {"arch", Opts.Arch}};
        if (!Problems[I].empty())
          Row["message"] = Problems[I];
        Rows.push_back(std::move(Row));
      } else if (!Problems[I].empty()) {
        OS << "FAIL " << K.Name << " #" << Pick[I] << " " << Vs[Pick[I]].Name
           << ": " << Problems[I] << "\n";
      }
    }
    if (!Opts.FormatJson)
      OS << K.Name << ": " << KP << " of " << Pick.size()
         << " sampled variants (of " << Vs.size() << ") compiled for "
         << Opts.Arch << "\n";
    Passed += KP;
    Failed += Pick.size() - KP;
  }
  if (Opts.FormatJson)
    OS << printJson(Rows) << "\n";
  else
    OS << Passed << " passed, " << Failed << " failed\n";
  if (Failed)
    return Failure::user("");
  return success();
}

/// --emit=variants for \p K.
void listVariants(const Kernel &K, const std::vector<Variant> &Vs,
                  const PlannerOptions &Opts, const SpaceSize &Size,
                  std::ostream &OS) {
  OS << "# kernel " << K.Name << ": " << Vs.size()
     << " variants, best first by the static cost model\n";
  if (Size.Analysed < Size.Shapes)
    OS << "# a spread of the space: isl analysed " << Size.Analysed << " of its "
       << Size.Shapes << " schedule shapes (--plan-limit="
       << Opts.MaxAnalyses << ")\n";
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
}

} // namespace

Status emitDeviceCode(CheckedSource &C, const CompileOptions &Opts,
                      std::ostream &OS, DiagnosticEngine &Diags) {
  if (Opts.CheckOpenCL)
    return checkOpenCL(C, Opts, OS, Diags);
  if (Opts.CheckNvrtc)
    return checkNvrtc(C, Opts, OS, Diags);
  // --emit=json and --emit=variants --format=json: one array, printed
  // once every kernel is done.
  bool AsJson = Opts.Emit == EmitKind::JSON ||
                (Opts.Emit == EmitKind::Variants && Opts.FormatJson);
  Json Rows = Json::array();
  for (size_t KI = 0; KI < C.kernels().size(); ++KI) {
    const Kernel &K = C.kernels()[KI];
    if (K.Stmts.empty())
      continue;
    if (Opts.Emit == EmitKind::Variants ||
        (Opts.AllVariants && Opts.Emit != EmitKind::PTX)) {
      SpaceSize Analysed;
      auto Planned = planVariants(C, KI, Opts.Planner, Opts.Jobs, &Analysed);
      if (!Planned)
        return report(Diags, K.Loc, Planned.takeFailure());
      const std::vector<Variant> &Vs = *Planned;
      if (Opts.Emit == EmitKind::Variants) {
        if (!AsJson)
          listVariants(K, Vs, Opts.Planner, Analysed, OS);
        for (size_t I = 0; AsJson && I < Vs.size(); ++I)
          Rows.push_back(variantJson(K, Vs[I], I));
        continue;
      }
      // Every variant, in ranked order, each under a one-line banner.
      auto Lowered =
          lowerVariants(C, KI, Vs, sampleIndices(Vs.size(), 0), Opts.Jobs);
      for (size_t I = 0; I < Vs.size(); ++I) {
        if (!Lowered[I])
          return report(Diags, {}, Lowered[I].takeFailure(),
                        "cannot lower variant " + quote(Vs[I].Name) +
                            " of kernel " + quote(K.Name) + ": ");
        if (Opts.Emit == EmitKind::JSON) {
          Rows.push_back(programJson(*Lowered[I], Vs[I]));
          continue;
        }
        OS << "// ===== variant " << I << ": " << Vs[I].Name << "\n";
        OS << printProgram(*Lowered[I], Opts.Emit == EmitKind::OpenCL
                                            ? Dialect::OpenCL
                                            : Dialect::CUDA);
      }
      continue;
    }
    std::vector<Variant> Vs;
    if (!namesSchedule(Opts.Variant)) {
      auto Planned = planVariants(C, KI, Opts.Planner, Opts.Jobs);
      if (!Planned)
        return report(Diags, K.Loc, Planned.takeFailure());
      Vs = std::move(*Planned);
    }
    auto V = chooseVariant(K, Vs, Opts.Variant);
    if (!V)
      return report(Diags, {}, V.takeFailure(),
                    "--variant=" + Opts.Variant + ": ");
    auto L =
        lowerChosen(K, Vs, *V, Opts.Variant, Opts.Planner.IslMaxOperations);
    if (!L)
      return report(Diags, K.Loc, L.takeFailure(),
                    "cannot lower variant " + quote(V->Name) + " of kernel " +
                        quote(K.Name) + ": ");
    if (L->Rank != 0)
      Diags.note(K.Loc, "lowering the first-ranked variant of kernel " +
                            quote(K.Name) +
                            " needs more than half of "
                            "--isl-max-operations; the variant of least "
                            "unrolled work is emitted instead");
    const Variant &Chosen = L->V;
    const device::DeviceProgram &P = L->Program;
    if (Opts.Emit == EmitKind::JSON) {
      Rows.push_back(programJson(P, Chosen));
      continue;
    }
    if (Opts.Emit == EmitKind::OpenCL) {
      OS << printProgram(P, Dialect::OpenCL);
      continue;
    }
    std::string Cuda = printProgram(P, Dialect::CUDA);
    if (Opts.Emit == EmitKind::CUDA) {
      OS << Cuda;
      continue;
    }
    auto Ptx = compileVariant(Cuda, K.Name + ".cu", Opts.Arch, false);
    if (!Ptx) {
      Diags.error("NVRTC failed to compile variant " + quote(Chosen.Name) +
                  " of kernel " + quote(K.Name) + " for " + Opts.Arch +
                  ":\n" + Ptx.failure().Message);
      return Failure::internal("");
    }
    OS << *Ptx;
  }
  if (AsJson)
    OS << printJson(Rows) << "\n";
  return success();
}

} // namespace loopy
