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
};

struct TunedKernel::Impl {
  TuneResult Result;
  std::vector<ArgumentInfo> Arguments;
  /// Warnings of the tuner (a damaged row of the database), as text.
  std::string Warnings;
  std::map<std::string, long> Params;
  std::vector<device::DeviceKernel> Kernels;
  std::vector<std::array<long, 3>> Grids;
  std::unique_ptr<cuda::Context> Ctx;
  std::unique_ptr<cuda::Module> Module;
  std::vector<cuda::Function> Functions;
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
/// strides and the element count then.
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
  return *this;
}

const PlannerOptions &Kernel::plannerOptions() const { return P->Planner; }

static std::vector<Variant> planned(const loopy::Kernel &K,
                                    const PlannerOptions &Opts) {
  auto Vs = planVariants(K, Opts);
  if (!Vs)
    throw api::Error(Vs.failure().Message);
  return std::move(*Vs);
}

std::vector<VariantInfo> Kernel::variants() const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  std::vector<VariantInfo> R;
  for (const Variant &V :
       planned(B->kernels()[kernelIndex(*B, P->Name)], P->Planner)) {
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
/// ranked if empty) of \p K.
static device::DeviceProgram lowerVariant(const loopy::Kernel &K,
                                          const PlannerOptions &Opts,
                                          const std::string &Schedule) {
  std::vector<Variant> Vs;
  if (!namesSchedule(Schedule))
    Vs = planned(K, Opts);
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
winnerCode(TuneResult &R, const loopy::Kernel &K, const PlannerOptions &Planner,
           isl::ctx Ctx, const ParamValues &Params) {
  if (!R.Launches.empty() && !R.Winner.Cubin.empty())
    return {R.Winner.Cubin, std::move(R.Launches)};
  device::DeviceProgram Prog = lowerVariant(K, Planner, R.Winner.Schedule);
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
      lowerVariant(B->kernels()[kernelIndex(*B, P->Name)], P->Planner, Schedule),
      Dialect::CUDA);
}

TunedKernel Kernel::tune(const TuneSettings &S) const {
  auto B = build(P->Src->Name, P->Src->Text, P->Fixed);
  size_t KI = kernelIndex(*B, P->Name);
  const loopy::Kernel &K = B->kernels()[KI];
  std::string Missing;
  for (const std::string &Name : K.ParamNames)
    if (!P->Fixed.count(Name) && !P->Run.count(Name))
      Missing += (Missing.empty() ? "" : ", ") + Name;
  if (!Missing.empty())
    throw Error("kernel " + quote(K.Name) + " needs a value for " + Missing +
                " to be tuned; give one with fix() or set()");
  auto I = std::make_unique<TunedKernel::Impl>();
  I->Params = P->Run;
  for (auto &[Name, V] : P->Fixed)
    I->Params[Name] = V;
  I->Arguments = argumentInfos(K, I->Params);

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
        winnerCode(I->Result, K, P->Planner, B->ctx(), I->Params);
    I->Ctx = std::make_unique<cuda::Context>(cuda::Device(0));
    I->Module = std::make_unique<cuda::Module>(Cubin);
    for (TunedLaunch &L : Launches) {
      I->Grids.push_back(L.Grid);
      I->Functions.push_back(I->Module->function(L.Kernel.Name));
      if (L.Kernel.DynamicShared)
        I->Functions.back().setMaxDynamicShared(
            static_cast<int>(L.Kernel.DynamicShared));
      I->Kernels.push_back(std::move(L.Kernel));
    }
  } catch (cuda::CudaError &E) {
    throw Error(E.what());
  } catch (gpu::NoGpuError &E) {
    throw Error(std::string("tuning needs a GPU: ") + E.what());
  }
  return TunedKernel(std::move(I));
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

void TunedKernel::launch(const std::map<std::string, DevicePtr> &Arrays,
                         const std::map<std::string, double> &Scalars,
                         void *Stream) const {
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
