//===- Loopy.cpp - Run-time code generation from C++ ----------------------===//
//
// Every operation checks the kernel's source text again through the compile
// entry (Compile/Compile.h), in an isl context of its own: isl objects
// belong to one context and one thread, a kernel is small, and so handles
// are cheap to copy and safe to use from several threads.
//
//===----------------------------------------------------------------------===//
#include "loopy/loopy.h"

#include "loopy/CodeGen/Launch.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Compile/LaunchArgs.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Runtime/Cuda.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

namespace loopy::api {

//===----------------------------------------------------------------------===//
// Error
//===----------------------------------------------------------------------===//

Error::Error(const std::string &What) : std::runtime_error(What) {
  // The first error line: located (file:line:col: error: message, the file
  // may hold colons), else "error: message", else the first line.
  static const std::regex Located(R"(^(.+):(\d+):(\d+): error: (.*)$)");
  std::istringstream In(What);
  std::string L, First;
  std::smatch M;
  while (std::getline(In, L)) {
    if (First.empty())
      First = L;
    if (std::regex_match(L, M, Located)) {
      File = M[1];
      Line = static_cast<unsigned>(std::stoul(M[2]));
      Column = static_cast<unsigned>(std::stoul(M[3]));
      Message = M[4];
      return;
    }
    if (L.rfind("error: ", 0) == 0) {
      Message = L.substr(7);
      return;
    }
  }
  Message = First;
}

namespace {

/// Checks \p Text with the fixed values \p Fixed as constants; throws Error
/// with the diagnostics.
std::unique_ptr<CheckedSource> build(const std::string &Name,
                                     const std::string &Text,
                                     const std::map<std::string, long> &Fixed) {
  auto SM = std::make_shared<SourceManager>(Name, Text);
  std::ostringstream Diag;
  DiagnosticEngine Diags(SM.get(), Diag);
  CheckOptions Opts;
  Opts.Defines = Fixed;
  auto C = checkSource(SM, Opts, Diags);
  if (!C)
    throw Error(Diag.str() + C.failure().Message);
  return std::move(*C);
}

size_t kernelIndex(const CheckedSource &C, const std::string &Name) {
  if (auto I = C.findKernel(Name))
    return *I;
  throw Error("no kernel " + quote(Name) + " in " + quote(C.source().name()));
}

/// One GPU worker per process, started on first use.
gpu::GpuWorker &worker() {
  static std::mutex M;
  static std::unique_ptr<gpu::GpuWorker> W;
  std::lock_guard<std::mutex> L(M);
  if (!W) {
    auto Started = gpu::startGpuWorker();
    if (!Started)
      throw Error((Started.failure().isInternal()
                       ? "cannot start the GPU worker: "
                       : "tuning needs a GPU: ") +
                  Started.failure().Message);
    W = std::move(*Started);
  }
  return *W;
}

} // namespace

struct Source::Impl {
  std::string Name, Text;
  std::vector<std::string> Kernels;
  /// Each kernel's index parameters, found when the source was checked.
  std::map<std::string, std::vector<std::string>> Params;
};

struct Kernel::Impl {
  std::shared_ptr<const Source::Impl> Src;
  std::string Name;
  std::map<std::string, long> Fixed, Run;
  PlannerOptions Planner;
  /// planner() gave the options: tuning keeps their shared-memory limit
  /// rather than the GPU's.
  bool PlannerGiven = false;
};

struct TunedKernel::Impl {
  TuneResult Result;
  std::vector<ArgumentInfo> Arguments;
  /// Warnings of the tuner (a damaged row of the database), as text.
  std::string Warnings;
  std::map<std::string, long> Params;
  /// The temporaries of split reductions, by name, with their bytes:
  /// each launch allocates them on its stream.
  std::vector<std::pair<std::string, size_t>> Temporaries;
  std::vector<device::DeviceKernel> Kernels;
  std::vector<std::array<long, 3>> Grids;
  std::unique_ptr<cuda::Context> Ctx;
  std::unique_ptr<cuda::Module> Module;
  std::vector<cuda::Function> Functions;

  /// Loads \p Cubin into the primary context of device 0 with its
  /// launches \p Launches.
  void load(const std::string &Cubin, std::vector<TunedLaunch> Launches) {
    Ctx = std::make_unique<cuda::Context>(cuda::Device(0));
    Module = std::make_unique<cuda::Module>(Cubin);
    for (TunedLaunch &L : Launches) {
      Grids.push_back(L.Grid);
      Functions.push_back(Module->function(L.Kernel.Name));
      if (L.Kernel.DynamicShared)
        Functions.back().setMaxDynamicShared(
            static_cast<int>(L.Kernel.DynamicShared));
      Kernels.push_back(std::move(L.Kernel));
    }
  }
};

//===----------------------------------------------------------------------===//
// Source
//===----------------------------------------------------------------------===//

Source::Source(std::shared_ptr<const Impl> P) : P(std::move(P)) {}

Source Source::fromString(const std::string &Text, const std::string &Name) {
  auto B = build(Name, Text, {});
  auto I = std::make_shared<Impl>();
  I->Name = Name;
  I->Text = Text;
  for (const loopy::Kernel &K : B->kernels()) {
    I->Kernels.push_back(K.Name);
    I->Params[K.Name] = K.ParamNames;
  }
  return Source(std::move(I));
}

Source Source::fromFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw Error("error: cannot open " + quote(Path));
  std::ostringstream SS;
  SS << In.rdbuf();
  return fromString(SS.str(), Path);
}

std::vector<std::string> Source::kernelNames() const { return P->Kernels; }

Kernel Source::kernel(const std::string &Name) const {
  std::string Pick = Name;
  if (Pick.empty()) {
    if (P->Kernels.size() != 1)
      throw Error(quote(P->Name) + " holds " + std::to_string(P->Kernels.size()) +
                  " kernels; name the one you want");
    Pick = P->Kernels.front();
  } else if (std::find(P->Kernels.begin(), P->Kernels.end(), Pick) ==
             P->Kernels.end()) {
    throw Error("no kernel " + quote(Pick) + " in " + quote(P->Name));
  }
  auto I = std::make_shared<Kernel::Impl>();
  I->Src = P;
  I->Name = Pick;
  return Kernel(std::move(I));
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Kernel::Kernel(std::shared_ptr<Impl> P) : P(std::move(P)) {}
Kernel::Kernel(const Kernel &O) : P(std::make_shared<Impl>(*O.P)) {}
Kernel &Kernel::operator=(const Kernel &O) {
  P = std::make_shared<Impl>(*O.P);
  return *this;
}
Kernel::Kernel(Kernel &&) noexcept = default;
Kernel &Kernel::operator=(Kernel &&) noexcept = default;
Kernel::~Kernel() = default;

const std::string &Kernel::name() const { return P->Name; }

std::vector<std::string> Kernel::parameters() const {
  return P->Src->Params.at(P->Name);
}

const std::map<std::string, long> &Kernel::fixedValues() const {
  return P->Fixed;
}
const std::map<std::string, long> &Kernel::setValues() const { return P->Run; }

/// The arguments of \p K with array shapes at \p Values: a dimension whose
/// extent involves a parameter without a value is -1, and so are the
/// strides and the element count then. Temporaries are left out.
/// The temporaries of \p K's split reductions at the parameter values
/// \p Values (every size known), with their bytes.
static std::vector<std::pair<std::string, size_t>>
temporaries(const loopy::Kernel &K, const std::map<std::string, long> &Values) {
  ParamValues All = Values;
  for (const auto &[Name, V] : K.Fixed)
    All[Name] = V;
  std::vector<std::pair<std::string, size_t>> R;
  for (const Argument &A : K.Args) {
    if (!A.Internal)
      continue;
    std::vector<long> Extents, Strides;
    std::string Why;
    if (!evaluateLayout(A, All, Extents, Strides, Why))
      throw Error("temporary " + quote(A.Name) + " of kernel " +
                  quote(K.Name) + ": " + Why);
    R.push_back({A.Name, elementCount(Extents, Strides) * dtypeSize(A.Type)});
  }
  return R;
}

static std::vector<ArgumentInfo>
argumentInfos(const loopy::Kernel &K,
              const std::map<std::string, long> &Values) {
  ParamValues Known = Values;
  for (const auto &[Name, V] : K.Fixed)
    Known[Name] = V;
  auto Involves = [&](const isl::aff &A) {
    for (const std::string &Name : K.ParamNames)
      if (!Known.count(Name)) {
        int Pos =
            isl_aff_find_dim_by_name(A.get(), isl_dim_param, Name.c_str());
        if (Pos >= 0 && isl_aff_involves_dims(A.get(), isl_dim_param, Pos, 1))
          return true;
      }
    return false;
  };
  // Parameters without a value are 0 where they are not involved.
  ParamValues Padded = Known;
  for (const std::string &Name : K.ParamNames)
    Padded.emplace(Name, 0);
  std::vector<ArgumentInfo> R;
  for (const Argument &A : K.Args) {
    // A temporary of a split reduction is no argument of the caller's.
    if (A.Internal)
      continue;
    ArgumentInfo I;
    I.Name = A.Name;
    I.ArgKind = A.Kind == ArgKind::Index    ? ArgumentInfo::Kind::Index
                : A.Kind == ArgKind::Scalar ? ArgumentInfo::Kind::Scalar
                                            : ArgumentInfo::Kind::Array;
    DType T = A.Kind == ArgKind::Index ? DType::I64 : A.Type;
    I.DType = dtypeName(T);
    I.ElementBytes = dtypeSize(T);
    I.Mode = A.isArray() ? argModeName(A.Mode) : "in";
    if (A.isArray()) {
      bool AllKnown = true;
      for (const isl::aff &E : A.Shape)
        if (Involves(E))
          AllKnown = false;
      if (A.Order == Layout::Strided)
        for (const isl::aff &S : A.Strides)
          if (Involves(S))
            AllKnown = false;
      std::vector<long> Extents, Strides;
      std::string Why;
      if (AllKnown && evaluateLayout(A, Padded, Extents, Strides, Why)) {
        I.Shape = Extents;
        I.Strides = Strides;
        I.Elements = static_cast<long>(elementCount(Extents, Strides));
      } else {
        // Each known extent alone, as a one-dimensional array's.
        for (const isl::aff &E : A.Shape) {
          Argument One = A;
          One.Shape = {E};
          One.Order = Layout::RowMajor;
          bool Known = !Involves(E) &&
                       evaluateLayout(One, Padded, Extents, Strides, Why);
          I.Shape.push_back(Known ? Extents[0] : -1);
        }
        I.Strides.assign(A.rank(), -1);
      }
    }
    R.push_back(std::move(I));
  }
  return R;
}

/// Every index parameter's value, fixed or set; Error naming those
/// without one, which \p K needs to be \p Done.
static std::map<std::string, long>
runValues(const loopy::Kernel &K, const std::map<std::string, long> &Fixed,
          const std::map<std::string, long> &Run, const char *Done) {
  std::map<std::string, long> Values = Run;
  for (const auto &[Name, V] : Fixed)
    Values[Name] = V;
  std::string Missing;
  for (const std::string &Name : K.ParamNames)
    if (!Values.count(Name))
      Missing += (Missing.empty() ? "" : ", ") + Name;
  if (!Missing.empty())
    throw Error("kernel " + quote(K.Name) + " needs a value for " + Missing +
                " to be " + Done + "; give one with fix() or set()");
  return Values;
}

std::vector<ArgumentInfo> Kernel::arguments() const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  return argumentInfos(B->kernels()[kernelIndex(*B, P->Name)], P->Run);
}

/// Throws unless \p Param is an index parameter of \p K.
static void checkParameter(const Kernel &K, const std::string &Param) {
  std::vector<std::string> Ps = K.parameters();
  if (std::find(Ps.begin(), Ps.end(), Param) == Ps.end())
    throw Error("kernel " + quote(K.name()) + " has no index parameter " +
                quote(Param));
}

Kernel &Kernel::fix(const std::string &Param, long Value) {
  checkParameter(*this, Param);
  P->Run.erase(Param);
  P->Fixed[Param] = Value;
  return *this;
}

Kernel &Kernel::set(const std::string &Param, long Value) {
  checkParameter(*this, Param);
  P->Fixed.erase(Param);
  P->Run[Param] = Value;
  return *this;
}

Kernel &Kernel::planner(const PlannerOptions &Opts) {
  P->Planner = Opts;
  P->PlannerGiven = true;
  return *this;
}

const PlannerOptions &Kernel::plannerOptions() const { return P->Planner; }

Kernel &Kernel::allowTf32(bool Allow) {
  P->Planner.AllowTf32 = Allow;
  return *this;
}

/// The planner's variants of kernel \p KI of \p C, isl's analyses on
/// every core.
static std::vector<Variant> planned(const CheckedSource &C, size_t KI,
                                    const PlannerOptions &Opts) {
  auto Vs = planVariants(C, KI, Opts, 0);
  if (!Vs)
    throw api::Error(Vs.failure().Message);
  return std::move(*Vs);
}

std::vector<VariantInfo> Kernel::variants() const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  std::vector<VariantInfo> R;
  for (const Variant &V :
       planned(*B, kernelIndex(*B, P->Name), P->Planner)) {
    VariantInfo I;
    I.Schedule = V.Name;
    I.StaticCost = V.Cost;
    if (!V.Stats.empty()) {
      I.Threads = V.Stats[0].Threads;
      I.SharedBytes = V.Stats[0].SharedBytes;
      I.RegisterOutputs = V.Stats[0].RegisterOutputs;
    }
    R.push_back(std::move(I));
  }
  return R;
}

/// Lowers the variant \p Schedule (a schedule string or a rank; the best
/// ranked if empty) of kernel \p KI of \p C.
static device::DeviceProgram lowerVariant(const CheckedSource &C, size_t KI,
                                          const PlannerOptions &Opts,
                                          const std::string &Schedule) {
  const loopy::Kernel &K = C.kernels()[KI];
  std::vector<Variant> Vs;
  if (!namesSchedule(Schedule))
    Vs = planned(C, KI, Opts);
  auto V = chooseVariant(K, Vs, Schedule);
  if (!V)
    throw Error("variant " + quote(Schedule) + ": " + V.failure().Message);
  auto Prog = loopy::lowerVariant(K, *V);
  if (!Prog)
    throw Error("cannot lower variant " + quote(V->Name) + ": " +
                Prog.failure().Message);
  return std::move(*Prog);
}

/// The winner's CUBIN and launches: those stored with it where there are
/// some, else (a row of schema version 2) the variant lowered and compiled
/// again.
static std::pair<std::string, std::vector<TunedLaunch>>
winnerCode(TuneResult &R, const CheckedSource &C, size_t KI,
           const PlannerOptions &Planner, isl::ctx Ctx,
           const ParamValues &Params) {
  if (!R.Launches.empty() && !R.Winner.Cubin.empty())
    return {R.Winner.Cubin, std::move(R.Launches)};
  const loopy::Kernel &K = C.kernels()[KI];
  device::DeviceProgram Prog = lowerVariant(C, KI, Planner, R.Winner.Schedule);
  auto Compiled = compileVariant(R.Winner.CudaSource, K.Name + ".cu",
                                 gpu::localDeviceInfo(0).arch(), true);
  if (!Compiled)
    throw Error("NVRTC failed on the tuned variant of " + quote(K.Name) +
                ":\n" + Compiled.failure().Message);
  std::vector<TunedLaunch> Launches;
  for (device::DeviceKernel &DK : Prog.Kernels) {
    auto Blocks = launchBlocks(Ctx, DK, Params);
    if (!Blocks)
      throw Error(Blocks.failure().Message);
    DK.Body.clear(); // only the signature and the launch shape are kept
    Launches.push_back({std::move(DK), *Blocks});
  }
  return {std::move(*Compiled), std::move(Launches)};
}

std::string Kernel::cuda(const std::string &Schedule) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  return printProgram(
      lowerVariant(*B, kernelIndex(*B, P->Name), P->Planner, Schedule),
      Dialect::CUDA);
}

TunedKernel Kernel::tune(const TuneSettings &S) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  size_t KI = kernelIndex(*B, P->Name);
  const loopy::Kernel &K = B->kernels()[KI];
  auto I = std::make_unique<TunedKernel::Impl>();
  I->Params = runValues(K, P->Fixed, P->Run, "tuned");
  I->Arguments = argumentInfos(K, I->Params);
  I->Temporaries = temporaries(K, I->Params);

  TuneRequest R;
  R.K = &K;
  R.Source = B.get();
  R.KernelIndex = KI;
  R.Params = I->Params;
  auto Parametric = B->parametricKernel(KI);
  if (!Parametric)
    throw Error("cannot tune kernel " + quote(K.Name) + ": " +
                Parametric.failure().Message);
  R.KernelHash = kernelHash(**Parametric);
  TuneOptions TO;
  TO.Planner = P->Planner;
  TO.SharedFromDevice = !P->PlannerGiven;
  TO.Budget = S.Budget;
  TO.Exhaustive = S.Exhaustive;
  TO.Retune = S.Retune;
  TO.DbPath = S.Database;
  TO.Seed = S.Seed;
  std::ostringstream Diag;
  DiagnosticEngine Diags(&B->source(), Diag);
  try {
    // A stored result is read through this process's own driver, which
    // runs the kernel anyway: no worker starts.
    std::optional<TuneResult> Stored;
    if (!S.Retune) {
      auto Hit = lookupTuned(R, TO, gpu::localDeviceInfo(0), Diags);
      if (!Hit)
        throw Error(Diag.str() + Hit.failure().Message);
      Stored = std::move(*Hit);
    }
    if (Stored) {
      I->Result = std::move(*Stored);
    } else {
      gpu::GpuWorker &W = worker();
      auto Result = loopy::tune(R, TO, W, Diags);
      if (!Result)
        throw Error(Diag.str() + Result.failure().Message);
      I->Result = std::move(*Result);
    }
    I->Warnings = Diag.str();
    // The winner, loaded into this process.
    auto [Cubin, Launches] =
        winnerCode(I->Result, *B, KI, P->Planner, B->ctx(), I->Params);
    I->load(Cubin, std::move(Launches));
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  } catch (gpu::NoGpuError &E) {
    throw Error(std::string("tuning needs a GPU: ") + E.what());
  }
  return TunedKernel(std::move(I));
}

/// The architecture \p Arch, or GPU 0's where empty.
static std::string archOrLocal(const std::string &Arch) {
  if (!Arch.empty())
    return Arch;
  try {
    return gpu::localDeviceInfo(0).arch();
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  } catch (gpu::NoGpuError &E) {
    throw Error(std::string("compiling for this machine's GPU needs one; "
                            "name an architecture (sm_90): ") +
                E.what());
  }
}

CompiledVariant Kernel::compile(const std::string &Schedule,
                                const std::string &Arch, bool Ptx) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  size_t KI = kernelIndex(*B, P->Name);
  const loopy::Kernel &K = B->kernels()[KI];
  device::DeviceProgram Prog = lowerVariant(*B, KI, P->Planner, Schedule);
  CompiledVariant C;
  C.Schedule = Prog.Schedule;
  C.Arch = archOrLocal(Arch);
  C.Cuda = printProgram(Prog, Dialect::CUDA);
  auto Binary = compileVariant(C.Cuda, K.Name + ".cu", C.Arch, !Ptx);
  if (!Binary)
    throw Error("NVRTC failed on variant " + quote(C.Schedule) + " of " +
                quote(K.Name) + ":\n" + Binary.failure().Message);
  C.Binary = std::move(*Binary);
  return C;
}

TunedKernel Kernel::load(const std::string &Schedule) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  size_t KI = kernelIndex(*B, P->Name);
  const loopy::Kernel &K = B->kernels()[KI];
  auto I = std::make_unique<TunedKernel::Impl>();
  I->Params = runValues(K, P->Fixed, P->Run, "loaded");
  I->Arguments = argumentInfos(K, I->Params);
  I->Temporaries = temporaries(K, I->Params);
  device::DeviceProgram Prog = lowerVariant(*B, KI, P->Planner, Schedule);
  I->Result.Winner.Schedule = Prog.Schedule;
  I->Result.Winner.CudaSource = printProgram(Prog, Dialect::CUDA);
  auto Cubin = compileVariant(I->Result.Winner.CudaSource, K.Name + ".cu",
                              archOrLocal(""), true);
  if (!Cubin)
    throw Error("NVRTC failed on variant " + quote(Prog.Schedule) + " of " +
                quote(K.Name) + ":\n" + Cubin.failure().Message);
  std::vector<TunedLaunch> Launches;
  for (device::DeviceKernel &DK : Prog.Kernels) {
    auto Blocks = launchBlocks(B->ctx(), DK, I->Params);
    if (!Blocks)
      throw Error(Blocks.failure().Message);
    DK.Body.clear(); // only the signature and the launch shape are kept
    Launches.push_back({std::move(DK), *Blocks});
  }
  try {
    I->load(*Cubin, std::move(Launches));
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  } catch (gpu::NoGpuError &E) {
    throw Error(std::string("loading a variant needs a GPU: ") + E.what());
  }
  return TunedKernel(std::move(I));
}

/// Whether \p A is one parameter alone ({ [] -> [(n)] }); its name then.
static std::optional<std::string> soleParameter(const isl::aff &A) {
  if (isl_aff_dim(A.get(), isl_dim_div) != 0)
    return std::nullopt;
  isl::val C = isl::manage(isl_aff_get_constant_val(A.get()));
  if (!C.is_zero())
    return std::nullopt;
  std::optional<std::string> Found;
  int N = isl_aff_dim(A.get(), isl_dim_param);
  for (int Pos = 0; Pos < N; ++Pos) {
    isl::val V =
        isl::manage(isl_aff_get_coefficient_val(A.get(), isl_dim_param, Pos));
    if (V.is_zero())
      continue;
    if (!V.is_one() || Found)
      return std::nullopt;
    Found = isl_aff_get_dim_name(A.get(), isl_dim_param, Pos);
  }
  return Found;
}

std::map<std::string, long> Kernel::sizesFromShapes(
    const std::map<std::string, std::vector<long>> &Shapes) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  const loopy::Kernel &K = B->kernels()[kernelIndex(*B, P->Name)];
  std::map<std::string, long> Sizes;
  std::map<std::string, std::string> From; // where each size was read
  for (const auto &[Name, Shape] : Shapes) {
    const Argument *A = K.findArg(Name);
    if (!A || !A->isArray())
      throw Error("kernel " + quote(K.Name) + " has no array argument " +
                  quote(Name));
    if (Shape.size() != A->rank())
      throw Error("array " + quote(Name) + " of kernel " + quote(K.Name) +
                  " has " + std::to_string(A->rank()) + " dimensions, not " +
                  std::to_string(Shape.size()));
    for (unsigned D = 0; D < A->rank(); ++D) {
      std::optional<std::string> Param = soleParameter(A->Shape[D]);
      if (!Param || P->Fixed.count(*Param))
        continue;
      std::string Where = quote(Name) + "'s dimension " + std::to_string(D);
      auto [It, New] = Sizes.emplace(*Param, Shape[D]);
      if (New)
        From[*Param] = Where;
      else if (It->second != Shape[D])
        throw Error("size " + quote(*Param) + " of kernel " + quote(K.Name) +
                    " is " + std::to_string(It->second) + " by " +
                    From[*Param] + " but " + std::to_string(Shape[D]) + " by " +
                    Where);
    }
  }
  return Sizes;
}

//===----------------------------------------------------------------------===//
// SizedKernel
//===----------------------------------------------------------------------===//

struct SizedKernel::Impl {
  Kernel K;
  TuneSettings Settings;
  mutable std::mutex M;
  std::map<std::map<std::string, long>, std::unique_ptr<TunedKernel>> Tuned;
};

SizedKernel::SizedKernel(Kernel K, TuneSettings S)
    : P(new Impl{std::move(K), std::move(S), {}, {}}) {}
SizedKernel::SizedKernel(SizedKernel &&) noexcept = default;
SizedKernel &SizedKernel::operator=(SizedKernel &&) noexcept = default;
SizedKernel::~SizedKernel() = default;

const TunedKernel &SizedKernel::at(const std::map<std::string, long> &Sizes) {
  // Tuning holds the lock: two threads wanting one new size tune it once.
  std::lock_guard<std::mutex> L(P->M);
  auto It = P->Tuned.find(Sizes);
  if (It != P->Tuned.end())
    return *It->second;
  Kernel At = P->K;
  for (const auto &[Name, V] : Sizes)
    At.fix(Name, V);
  auto T = std::make_unique<TunedKernel>(At.tune(P->Settings));
  return *P->Tuned.emplace(Sizes, std::move(T)).first->second;
}

void SizedKernel::launch(
    const std::vector<std::pair<ArrayArg, std::vector<long>>> &Arrays,
    const std::map<std::string, double> &Scalars, void *Stream) {
  std::map<std::string, std::vector<long>> Shapes;
  std::vector<ArrayArg> Typed;
  for (const auto &[A, Shape] : Arrays) {
    Shapes[A.Name] = Shape;
    Typed.push_back(A);
  }
  const TunedKernel &T = at(P->K.sizesFromShapes(Shapes));
  for (const ArgumentInfo &I : T.arguments())
    if (Shapes.count(I.Name) && Shapes[I.Name] != I.Shape)
      throw Error("array " + quote(I.Name) + " of kernel " +
                  quote(P->K.name()) +
                  " does not have the extents its sizes give it");
  T.launch(Typed, Scalars, Stream);
}

std::size_t SizedKernel::size() const {
  std::lock_guard<std::mutex> L(P->M);
  return P->Tuned.size();
}

//===----------------------------------------------------------------------===//
// TunedKernel
//===----------------------------------------------------------------------===//

TunedKernel::TunedKernel(std::unique_ptr<Impl> P) : P(std::move(P)) {}
TunedKernel::TunedKernel(TunedKernel &&) noexcept = default;
TunedKernel &TunedKernel::operator=(TunedKernel &&) noexcept = default;
TunedKernel::~TunedKernel() = default;

const std::string &TunedKernel::schedule() const {
  return P->Result.Winner.Schedule;
}
const std::string &TunedKernel::cudaSource() const {
  return P->Result.Winner.CudaSource;
}
const std::string &TunedKernel::warnings() const { return P->Warnings; }
double TunedKernel::seconds() const { return P->Result.Winner.MedianSeconds; }
double TunedKernel::gflops() const { return P->Result.Winner.GFlops; }
bool TunedKernel::fromDatabase() const { return P->Result.FromDatabase; }
double TunedKernel::tuningSeconds() const {
  return P->Result.Winner.TuningSeconds;
}

double TunedKernel::flops() const { return P->Result.Work.Flops; }
double TunedKernel::bytes() const { return P->Result.Work.bytes(); }
const std::vector<ArgumentInfo> &TunedKernel::arguments() const {
  return P->Arguments;
}
const std::map<std::string, long> &TunedKernel::parameterValues() const {
  return P->Params;
}

void TunedKernel::launch(const std::vector<ArrayArg> &Arrays,
                         const std::map<std::string, double> &Scalars,
                         void *Stream) const {
  std::map<std::string, DevicePtr> Pointers;
  for (const ArrayArg &A : Arrays) {
    auto I =
        std::find_if(P->Arguments.begin(), P->Arguments.end(),
                     [&](const ArgumentInfo &I) { return I.Name == A.Name; });
    if (I == P->Arguments.end() || I->ArgKind != ArgumentInfo::Kind::Array)
      throw Error(quote(A.Name) +
                  " is not an array argument of the tuned kernel");
    if (I->DType != A.DType)
      throw Error("array " + quote(A.Name) + " is given as " + A.DType +
                  " but the kernel declares " + I->DType);
    if (!Pointers.emplace(A.Name, A.Pointer).second)
      throw Error("array " + quote(A.Name) + " is given twice");
  }
  launch(Pointers, Scalars, Stream);
}

void TunedKernel::launch(const std::map<std::string, DevicePtr> &Given,
                         const std::map<std::string, double> &Scalars,
                         void *Stream) const {
  // The temporaries, allocated in the stream's order, freed in it after
  // the kernels that use them.
  std::map<std::string, DevicePtr> Arrays = Given;
  std::vector<std::unique_ptr<cuda::StreamBuffer>> Temporaries;
  try {
    for (const auto &[Name, Bytes] : P->Temporaries) {
      Temporaries.push_back(std::make_unique<cuda::StreamBuffer>(
          Bytes, static_cast<CUstream>(Stream)));
      Arrays[Name] = static_cast<DevicePtr>(Temporaries.back()->pointer());
    }
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  }
  for (size_t KI = 0; KI < P->Kernels.size(); ++KI) {
    const device::DeviceKernel &DK = P->Kernels[KI];
    const std::array<long, 3> &G = P->Grids[KI];
    if (G[0] == 0 || G[1] == 0 || G[2] == 0)
      continue;
    std::map<std::string, HostScalar> Values;
    for (const auto &[Name, V] : Scalars)
      Values[Name] = HostScalar{DType::F64, V, static_cast<int64_t>(V)};
    auto Bound = bindLaunchArgs(DK, P->Params, Values);
    if (!Bound)
      throw Error(Bound.failure().Message);
    // Arrays by their device pointers; values by their bytes.
    std::vector<CUdeviceptr> Pointers(Bound->size());
    std::vector<void *> Args;
    for (size_t A = 0; A < Bound->size(); ++A) {
      LaunchArg &LA = (*Bound)[A];
      if (!LA.isArray()) {
        Args.push_back(LA.Bytes.data());
        continue;
      }
      const std::string &Name = LA.Param->Name;
      auto It = Arrays.find(Name);
      if (It == Arrays.end())
        throw Error("launch of " + quote(DK.Name) + ": no buffer for array " +
                    quote(Name));
      for (const auto &[Aligned, Bytes] : DK.Aligned)
        if (Aligned == Name && It->second % Bytes != 0)
          throw Error("launch of " + quote(DK.Name) + ": array " +
                      quote(Name) + " is not " + std::to_string(Bytes) +
                      "-byte aligned, and the tuned variant reads it in " +
                      std::to_string(Bytes) +
                      "-byte vectors (memory from cuMemAlloc always is)");
      Pointers[A] = static_cast<CUdeviceptr>(It->second);
      Args.push_back(&Pointers[A]);
    }
    unsigned Grid[3], Block[3];
    for (int D = 0; D < 3; ++D) {
      Grid[D] = static_cast<unsigned>(G[D]);
      Block[D] = static_cast<unsigned>(DK.BlockDim[D]);
    }
    try {
      cuda::launch(P->Functions[KI], Grid, Block,
                   static_cast<unsigned>(DK.DynamicShared),
                   static_cast<CUstream>(Stream), Args.data());
    } catch (cuda::CudaError &E) {
      throw Error(E.what());
    }
  }
}

} // namespace loopy::api
