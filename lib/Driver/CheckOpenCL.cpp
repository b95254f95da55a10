//===- CheckOpenCL.cpp - Running every variant on the CPU -----------------===//
#include "loopy/Driver/CheckOpenCL.h"

#include "RunParams.h"

#include "loopy/CodeGen/Plant.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Support/Parallel.h"
#include "loopy/Driver/Json.h"
#include "loopy/Driver/RunOpenCL.h"
#include "loopy/Interp/Compare.h"
#include "loopy/Interp/Fill.h"
#include "loopy/Interp/Interpreter.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Runtime/OpenCL.h"
#include "loopy/Support/Isl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

namespace loopy {

using namespace device;

std::vector<std::string> paramsWithoutValue(const Kernel &K,
                                            const CompileOptions &Opts) {
  std::vector<std::string> Missing;
  if (Opts.AllParams)
    return Missing;
  for (const std::string &P : K.ParamNames)
    if (!K.Fixed.count(P) && !Opts.RunParams.count(P))
      Missing.push_back(P);
  return Missing;
}

std::optional<std::map<std::string, long>>
runParams(const Kernel &K, const CompileOptions &Opts, const char *Option,
          DiagnosticEngine &Diags) {
  std::vector<std::string> Missing = paramsWithoutValue(K, Opts);
  if (Missing.empty()) {
    std::map<std::string, long> Params = Opts.RunParams;
    for (const std::string &P : K.ParamNames)
      if (!K.Fixed.count(P) && !Params.count(P))
        Params[P] = *Opts.AllParams;
    return Params;
  }
  std::string Names;
  for (const std::string &P : Missing)
    Names += (Names.empty() ? "" : ", ") + P;
  Diags.error(K.Loc, std::string(Option) + " runs kernel " + quote(K.Name) +
                         " and needs a value for " + Names +
                         "; give one with -D NAME=VALUE (a constant in the "
                         "code) or --param NAME=VALUE (a kernel argument)");
  return std::nullopt;
}

/// The reduction strategy of every reduction index and the staged reads of
/// each statement: variants that share it exercise the same code paths.
static std::string strategyKey(const Kernel &K, const Variant &V) {
  std::string Key = V.Merge + V.Fuse;
  for (size_t I = 0; I < V.Schedules.size(); ++I) {
    const Schedule &Sch = V.Schedules[I];
    const Statement &S = K.Stmts[I];
    Key += "|";
    for (unsigned R : S.ReductionIndices) {
      const IndexMap *M = Sch.find(R);
      Key += M ? std::to_string(static_cast<int>(M->K)) : "-";
    }
    Key += "/";
    for (unsigned P : Sch.Prefetch)
      Key += std::to_string(P) + ",";
  }
  return Key;
}

std::vector<size_t> selectVariants(const Kernel &K, const std::vector<Variant> &Vs,
                                   const CompileOptions &Opts) {
  size_t N = Vs.size();
  if (Opts.AllVariants || Opts.Sample <= 0 || static_cast<size_t>(Opts.Sample) >= N) {
    std::vector<size_t> All(N);
    for (size_t I = 0; I < N; ++I)
      All[I] = I;
    return All;
  }
  // The best ranked of each strategy, in rank order (the first is 0).
  std::vector<size_t> Firsts;
  std::set<std::string> Seen;
  // Merged variants map the merged kernel's indices.
  std::optional<MergedKernel> Merged;
  for (size_t I = 0; I < N && !Merged; ++I)
    if (!Vs[I].Merge.empty())
      Merged = mergeIndices(K);
  // Fused variants map the fused kernel's statements.
  std::optional<FusedKernel> Fused;
  for (size_t I = 0; I < N && !Fused; ++I)
    if (!Vs[I].Fuse.empty())
      Fused = fuseStatements(K);
  for (size_t I = 0; I < N; ++I) {
    const Kernel &View = !Vs[I].Merge.empty() && Merged  ? Merged->K
                         : !Vs[I].Fuse.empty() && Fused ? Fused->K
                                                         : K;
    if (Seen.insert(strategyKey(View, Vs[I])).second)
      Firsts.push_back(I);
  }
  size_t Want = static_cast<size_t>(Opts.Sample);
  if (Opts.EveryStrategy)
    Want = std::max(Want, Firsts.size());
  std::set<size_t> Pick;
  for (size_t I = 0; I < Firsts.size() && Pick.size() < Want; ++I)
    Pick.insert(Firsts[I]);
  // Evenly spread over the ranking until the sample is full.
  for (size_t Step = 0; Pick.size() < Want && Step < Want; ++Step)
    Pick.insert(static_cast<size_t>(Step * (double)N / Want));
  for (size_t I = 0; Pick.size() < Want && I < N; ++I)
    Pick.insert(I);
  return {Pick.begin(), Pick.end()};
}

namespace {

/// One variant's run: the outcome and the line to print (or, for a
/// variant that matched, its largest relative error).
struct Outcome {
  bool Ok = false;
  std::string Line;
  std::optional<double> RelativeError;
};

class Runner {
public:
  Runner(const Kernel &K, const cl::Device &Dev, const HostData &Inputs,
         const HostData &Reference)
      : K(K), Dev(Dev), Inputs(Inputs), Reference(Reference) {}

  /// Runs \p P, built as \p Prog, on a copy of the inputs and compares
  /// (\p Tf32: with the tolerance of products rounded to tf32); the
  /// largest relative L2 error of its outputs, or throws saying how they
  /// differ.
  double run(const DeviceProgram &P, const cl::Program &Prog, isl::ctx Ctx,
             bool Tf32);

private:
  const Kernel &K;
  const cl::Device &Dev;
  const HostData &Inputs;
  const HostData &Reference;
  std::mutex KernelIsl;
};

double Runner::run(const DeviceProgram &P, const cl::Program &Prog,
                   isl::ctx Ctx, bool Tf32) {
  HostData Run = Inputs; // outputs poisoned
  runOnOpenCL(Dev, Prog, P, K, Run, Ctx);
  // The kernel's isl objects belong to one context, which one thread at a
  // time may use.
  Comparison C = [&] {
    std::lock_guard<std::mutex> L(KernelIsl);
    CompareOptions Opts;
    Opts.Tf32 = Tf32;
    return compareOutputs(K, Reference, Run, Opts);
  }();
  if (!C.Ok)
    throw std::runtime_error(C.message());
  double Worst = 0;
  for (const ArrayComparison &A : C.Arrays)
    Worst = std::max(Worst, A.RelativeL2);
  return Worst;
}

} // namespace

Status checkOpenCL(const CheckedSource &C, const CompileOptions &Opts,
                   std::ostream &OS, DiagnosticEngine &Diags) {
  std::unique_ptr<cl::Device> Dev;
  try {
    Dev = std::make_unique<cl::Device>();
  } catch (cl::OpenCLError &E) {
    Diags.error(std::string("--check=opencl: ") + E.what());
    return Failure::user("");
  }
  // --format=json: one row per variant run, printed at the end.
  Json Rows = Json::array();
  if (!Opts.FormatJson) {
    OS << "# OpenCL device: " << Dev->description() << "\n";
    OS << "# seed " << Opts.Seed << "\n";
  }
  // Parameters fixed in the code (-D) are part of the kernel; the others
  // are bound per kernel below.
  unsigned Passed = 0, Failed = 0;
  for (size_t KI = 0; KI < C.kernels().size(); ++KI) {
    const Kernel &K = C.kernels()[KI];
    if (K.Stmts.empty())
      continue;
    auto Given = runParams(K, Opts, "--check=opencl", Diags);
    if (!Given)
      return Failure::user("");
    ParamValues Params = *Given;
    std::string Error;
    auto Data = makeHostData(K, Params, Error);
    if (!Data) {
      Diags.error(K.Loc, "cannot run kernel " + quote(K.Name) + ": " + Error);
      return Failure::user("");
    }
    fillRandom(K, *Data, Opts.Seed);
    HostData Reference = *Data;
    interpret(K, Reference);

    auto Planned = planVariants(C, KI, Opts.Planner, Opts.Jobs);
    if (!Planned) {
      Diags.error(K.Loc, Planned.failure().Message);
      return Failure::user("");
    }
    std::vector<Variant> Vs = std::move(*Planned);
    std::vector<size_t> Pick;
    if (!Opts.Variant.empty()) {
      auto V = chooseVariant(K, Vs, Opts.Variant);
      if (!V) {
        Diags.error("--variant=" + Opts.Variant + ": " + V.failure().Message);
        return Failure::user("");
      }
      for (size_t I = 0; I < Vs.size(); ++I)
        if (Vs[I].Name == V->Name)
          Pick.push_back(I);
      if (Pick.empty()) { // a legal schedule the planner did not list
        Vs.push_back(*V);
        Pick.push_back(Vs.size() - 1);
      }
    } else {
      Pick = selectVariants(K, Vs, Opts);
    }
    auto Start = std::chrono::steady_clock::now();
    auto Lowered = lowerVariants(C, KI, Vs, Pick, Opts.Jobs);
    std::vector<Outcome> Results(Pick.size());
    // Programs are built in batches: one OpenCL program holds the kernels
    // of several variants (renamed apart), which PoCL builds in less time
    // than the variants one by one -- up to 48 a batch, as many batches as
    // jobs where that is fewer (200 variants of matmul build in 15% less
    // time in batches of 48 than of 16). A batch that fails to build is
    // retried one variant at a time, so that the failure is reported
    // against its variant.
    unsigned Jobs = workerCount(Opts.Jobs, Pick.size());
    size_t PerBatch =
        std::clamp<size_t>((Pick.size() + Jobs - 1) / Jobs, 1, 48);
    std::vector<std::vector<size_t>> Batches(1);
    for (size_t I = 0; I < Pick.size(); ++I) {
      Outcome &O = Results[I];
      if (!Lowered[I]) {
        O.Line = "lowering failed: " + Lowered[I].failure().Message;
        continue;
      }
      DeviceProgram &P = *Lowered[I];
      if (!Opts.Plant.empty() && !plantBug(P, Opts.Plant)) {
        O.Ok = true;
        O.Line = "nothing to plant " + Opts.Plant + " in";
        continue;
      }
      for (DeviceKernel &DK : P.Kernels)
        DK.Name += "_v" + std::to_string(Pick[I]);
      if (Batches.back().size() == PerBatch)
        Batches.emplace_back();
      Batches.back().push_back(I);
    }
    Runner R(K, *Dev, *Data, Reference);
    // Each thread evaluates grids in an isl context of its own.
    auto MakeIsl = [] { return std::make_unique<IslContext>(); };
    auto Work = [&](IslContext &Isl, size_t B) {
      auto Build = [&](const std::vector<size_t> &Members) {
        PreludeParts Parts = PreludeParts::none();
        for (size_t I : Members)
          Parts.add(*Lowered[I]);
        std::string Source = printPrelude(Dialect::OpenCL, Parts);
        for (size_t I : Members)
          Source += printKernels(*Lowered[I], Dialect::OpenCL);
        // The check is about results, not speed: unoptimised code builds
        // four times faster on PoCL.
        return Dev->build(Source, "-w -cl-opt-disable");
      };
      auto RunOne = [&](size_t I, const cl::Program &Prog) {
        try {
          double Worst =
              R.run(*Lowered[I], Prog, Isl.get(), Vs[Pick[I]].tf32());
          char Buf[32];
          std::snprintf(Buf, sizeof Buf, "%.2g", Worst);
          Results[I].Line = std::string("relative error ") + Buf;
          Results[I].RelativeError = Worst;
          Results[I].Ok = true;
        } catch (std::exception &E) {
          Results[I].Line = E.what();
        }
      };
      const std::vector<size_t> &Members = Batches[B];
      if (Members.empty())
        return;
      std::optional<cl::Program> Prog;
      try {
        Prog.emplace(Build(Members));
      } catch (cl::OpenCLError &) {
      }
      for (size_t I : Members) {
        if (Prog) {
          RunOne(I, *Prog);
          continue;
        }
        try {
          RunOne(I, Build({I}));
        } catch (cl::OpenCLError &E) {
          Results[I].Line = E.what();
        }
      }
    };
    parallelForEach(Batches.size(), Opts.Jobs, MakeIsl, Work);
    unsigned KP = 0;
    for (size_t I = 0; I < Pick.size(); ++I) {
      const Outcome &O = Results[I];
      KP += O.Ok;
      if (Opts.FormatJson) {
        Json Row{{"kernel", K.Name},
                 {"rank", Pick[I]},
                 {"schedule", Vs[Pick[I]].Name},
                 {"passed", O.Ok}};
        if (O.RelativeError)
          Row["relative_error"] = *O.RelativeError;
        else
          Row["message"] = O.Line;
        Row["seed"] = Opts.Seed;
        Rows.push_back(std::move(Row));
        continue;
      }
      std::string Line = O.Line;
      std::replace(Line.begin(), Line.end(), '\n', ' ');
      OS << (O.Ok ? "PASS " : "FAIL ") << K.Name << " #" << Pick[I] << " "
         << Vs[Pick[I]].Name << ": " << Line << "\n";
    }
    double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                Start)
                      .count();
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.1f", Secs);
    if (!Opts.FormatJson)
      OS << "# " << K.Name << ": " << KP << " of " << Pick.size()
         << " variants (of " << Vs.size() << ") match the interpreter, in "
         << Buf << " s\n";
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

} // namespace loopy
