//===- Tuner.cpp - Choosing a variant by running it on the GPU ------------===//
#include "loopy/Tuner/Tuner.h"

#include "loopy/CodeGen/Launch.h"
#include "loopy/CodeGen/Plant.h"
#include "loopy/CodeGen/Printer.h"
#include "loopy/Compile/Compile.h"
#include "loopy/Compile/LaunchArgs.h"
#include "loopy/Support/Parallel.h"
#include "loopy/Interp/Compare.h"
#include "loopy/Interp/Fill.h"
#include "loopy/Interp/Interpreter.h"
#include "loopy/Runtime/Nvrtc.h"
#include "loopy/Support/Isl.h"
#include "loopy/Tuner/CompileCache.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Learner.h"
#include "loopy/Tuner/Search.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

#ifndef LOOPY_VERSION
#define LOOPY_VERSION "unknown"
#endif

namespace loopy {

using namespace device;
using Clock = std::chrono::steady_clock;

PlannerOptions plannerFor(const TuneOptions &Opts, const gpu::DeviceInfo &Dev) {
  PlannerOptions P = Opts.Planner;
  if (Opts.SharedFromDevice && Dev.SharedPerBlockOptin > 0)
    P.MaxSharedBytes = static_cast<long>(Dev.SharedPerBlockOptin);
  return P;
}

std::string plannerOptionsText(const PlannerOptions &Opts) {
  return "max_register_outputs=" + std::to_string(Opts.MaxRegisterOutputs) +
         ",max_shared=" + std::to_string(Opts.MaxSharedBytes) +
         ",max_threads=" + std::to_string(Opts.MaxThreads) +
         ",min_blocks=" + std::to_string(Opts.MinBlocks) +
         ",min_threads=" + std::to_string(Opts.MinThreads) +
         ",plan_limit=" + std::to_string(Opts.MaxAnalyses) +
         (Opts.AllowTf32 ? ",tf32" : "");
}

TuningKey tuningKey(const TuneRequest &R, const PlannerOptions &Planner,
                    const gpu::DeviceInfo &Dev) {
  TuningKey Key;
  Key.KernelHash = R.KernelHash;
  Key.FixedParams = fixedParamsText(R.Params);
  Key.Device = Dev.Name;
  Key.ComputeCapability = Dev.computeCapability();
  Key.DriverVersion = Dev.driverVersionString();
  Key.NvrtcVersion = nvrtcVersionString();
  Key.PlannerOptions = plannerOptionsText(Planner);
  return Key;
}

Expected<std::vector<gpu::Launch>>
programLaunches(isl::ctx Ctx, const DeviceProgram &P, const HostData &Data) {
  std::vector<gpu::Launch> Launches;
  for (const DeviceKernel &DK : P.Kernels) {
    auto Blocks = launchBlocks(Ctx, DK, Data.Params);
    if (!Blocks)
      return Blocks.takeFailure();
    std::array<long, 3> Grid = *Blocks;
    if (Grid[0] == 0 || Grid[1] == 0 || Grid[2] == 0)
      continue;
    gpu::Launch L;
    L.Function = DK.Name;
    L.DynamicShared = static_cast<unsigned>(DK.DynamicShared);
    for (int A = 0; A < 3; ++A) {
      L.Grid[A] = static_cast<unsigned>(Grid[A]);
      L.Block[A] = static_cast<unsigned>(DK.BlockDim[A]);
    }
    // The interpreter's data holds every value a launch needs: a missing
    // one is a bug of the caller.
    auto Args = bindLaunchArgs(DK, Data.Params, Data.Scalars);
    assert(Args && "every parameter and scalar has a value");
    for (LaunchArg &A : *Args) {
      if (A.isArray()) {
        L.Args.push_back(gpu::KernelArg::buffer(A.Param->Name));
        continue;
      }
      gpu::KernelArg KA;
      KA.Bytes = std::move(A.Bytes);
      L.Args.push_back(std::move(KA));
    }
    Launches.push_back(std::move(L));
  }
  return Launches;
}

std::string codeIdentity(const std::string &Cuda, const DeviceProgram &P) {
  std::string Id;
  size_t Pos = 0;
  while (Pos < Cuda.size()) {
    size_t End = Cuda.find('\n', Pos);
    End = End == std::string::npos ? Cuda.size() : End + 1;
    if (Cuda.compare(Pos, 12, "// schedule:") != 0)
      Id.append(Cuda, Pos, End - Pos);
    Pos = End;
  }
  for (const DeviceKernel &DK : P.Kernels) {
    Id += "\nlaunch " + DK.Name;
    for (int A = 0; A < 3; ++A)
      Id += " " + std::to_string(DK.BlockDim[A]) + " " + DK.GridIsl[A];
    Id += " " + std::to_string(DK.DynamicShared);
    for (const auto &[Name, Bytes] : DK.Aligned)
      Id += " " + Name + ":" + std::to_string(Bytes);
  }
  return Id;
}

namespace {

/// Whether a statement of \p K reads an array that an earlier one writes.
bool readsEarlierOutput(const Kernel &K) {
  std::set<unsigned> Written;
  for (const Statement &S : K.Stmts) {
    for (const Access &A : S.Reads)
      if (Written.count(A.Arg))
        return true;
    Written.insert(S.Write.Arg);
  }
  return false;
}

/// The GPU worker's name for elements of type \p T.
gpu::ElementKind elementKind(DType T) {
  switch (T) {
  case DType::F64:
    return gpu::ElementKind::F64;
  case DType::F16:
    return gpu::ElementKind::F16;
  case DType::BF16:
    return gpu::ElementKind::BF16;
  case DType::I32:
    return gpu::ElementKind::I32;
  case DType::I64:
    return gpu::ElementKind::I64;
  case DType::I8:
  case DType::U8:
    return gpu::ElementKind::I8;
  case DType::I16:
  case DType::U16:
    return gpu::ElementKind::I16;
  default:
    return gpu::ElementKind::F32;
  }
}

/// The first line of \p S.
std::string firstLine(const std::string &S) {
  return S.substr(0, S.find('\n'));
}

std::string formatMs(double Seconds) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3f ms", Seconds * 1e3);
  return Buf;
}

/// A one-line progress bar, redrawn in place on a terminal.
class ProgressBar {
public:
  ProgressBar(std::ostream *OS, std::string What, size_t Total)
      : OS(OS), What(std::move(What)), Total(Total) {}
  ~ProgressBar() {
    if (OS)
      *OS << "\r\033[K" << std::flush;
  }
  void update(size_t Done, double Best) {
    if (!OS)
      return;
    constexpr size_t Width = 30;
    size_t Filled = Total ? std::min(Width, Done * Width / Total) : Width;
    *OS << "\r\033[K" << What << " [" << std::string(Filled, '=')
        << std::string(Width - Filled, ' ') << "] " << Done << "/" << Total;
    if (Best > 0)
      *OS << "  best " << formatMs(Best);
    *OS << std::flush;
  }

private:
  std::ostream *OS;
  std::string What;
  size_t Total;
};

/// The compiled form of one candidate, or why there is none.
struct Compiled {
  std::optional<DeviceProgram> Program;
  std::string Source;
  std::string Cubin;
  std::string Error;
  /// The better-ranked candidate whose printed code and launches are the
  /// same: this one shares its compile and its result. A position in this
  /// round's candidates, or in an earlier round's (EarlierRound).
  std::optional<size_t> SameAs;
  bool EarlierRound = false;
};

/// Lowers and prints the candidates on every core, and marks each one
/// whose code is an earlier one's (SameAs): of this round, or of one
/// before, whose candidates' code identities \p Seen holds with their
/// positions among all candidates; this round's are added, from \p Base.
std::vector<Compiled>
lowerCandidates(const TuneRequest &R, const std::vector<Variant> &Vs,
                const std::vector<size_t> &Pick, const TuneOptions &Opts,
                bool Plant, std::map<std::string, size_t> &Seen, size_t Base) {
  std::vector<Expected<DeviceProgram>> Lowered =
      lowerVariants(*R.Source, R.KernelIndex, Vs, Pick, Opts.Jobs);
  std::vector<Compiled> Out(Pick.size());
  for (size_t I = 0; I < Pick.size(); ++I) {
    if (!Lowered[I]) {
      Out[I].Error = "lowering failed: " + Lowered[I].failure().Message;
      continue;
    }
    if (Plant && I == 1 && Opts.Plant == TuneOptions::SameCodePlant) {
      // Testing: the first candidate's program once more.
      Lowered[I] = std::move(
          lowerVariants(*R.Source, R.KernelIndex, Vs, {Pick[0]}, 1)[0]);
      assert(Lowered[I] && "the first candidate lowered before");
    } else if (Plant && I == Opts.PlantAt && !Opts.Plant.empty() &&
               !plantBug(*Lowered[I], Opts.Plant)) {
      Out[I].Error = "nothing to plant " + Opts.Plant + " in";
    }
    Out[I].Source = printProgram(*Lowered[I], Dialect::CUDA);
    Out[I].Program = std::move(*Lowered[I]);
    if (!Out[I].Error.empty())
      continue;
    auto [It, New] =
        Seen.emplace(codeIdentity(Out[I].Source, *Out[I].Program), Base + I);
    if (!New) {
      Out[I].EarlierRound = It->second < Base;
      Out[I].SameAs = Out[I].EarlierRound ? It->second : It->second - Base;
    }
  }
  return Out;
}

/// The compile cache of \p Opts; none if it cannot be opened (then every
/// variant is compiled; that is all).
std::optional<CompileCache> openCompileCache(const TuneOptions &Opts) {
  try {
    return CompileCache(Opts.CacheDir.empty()
                            ? defaultCompileCacheDir()
                            : std::filesystem::path(Opts.CacheDir));
  } catch (CompileCacheError &) {
    return std::nullopt;
  }
}

/// The cubin of \p Source for \p Arch, from \p Cache (may be null) if it
/// holds it, else compiled by NVRTC (version \p Nvrtc) and stored there;
/// empty, with \p Error set, if NVRTC fails.
std::string compileCached(const std::string &Source,
                          const std::string &FileName, const std::string &Arch,
                          const std::string &Nvrtc, CompileCache *Cache,
                          std::string &Error) {
  std::string Key = compileCacheKey(Source, nvrtcOptions(), Nvrtc, Arch);
  if (Cache)
    try {
      if (auto Hit = Cache->lookup(Key))
        return std::move(Hit->Cubin);
    } catch (CompileCacheError &) {
    }
  NvrtcResult NR = compileCuda(Source, FileName, Arch, true);
  if (!NR.Ok) {
    Error = "NVRTC: " + firstLine(NR.Log);
    return "";
  }
  if (Cache)
    try {
      Cache->store(Key, {NR.Output, NR.Log});
    } catch (CompileCacheError &) {
    }
  return std::move(NR.Output);
}

/// Compiles the candidates with NVRTC on a pool of threads, in rank order,
/// while the caller runs those that are ready (wait()); compiled variants
/// are cached on disk. A candidate with an error or the code of another
/// is not compiled.
class BackgroundCompiler {
public:
  BackgroundCompiler(std::vector<Compiled> &Code, std::string FileName,
                     std::string Arch, const TuneOptions &Opts)
      : Code(Code), FileName(std::move(FileName)), Arch(std::move(Arch)),
        Nvrtc(nvrtcVersionString()), Done(Code.size(), 0) {
    Cache = openCompileCache(Opts);
    Threads = startThreads(workerCount(Opts.Jobs, Code.size()),
                           [this] { work(); });
  }
  ~BackgroundCompiler() {
    Stop = true;
    for (std::thread &T : Threads)
      T.join();
  }
  BackgroundCompiler(const BackgroundCompiler &) = delete;
  BackgroundCompiler &operator=(const BackgroundCompiler &) = delete;

  /// Returns once candidate \p I (and the one whose code it shares) is
  /// compiled or has failed.
  void wait(size_t I) {
    size_t J = Code[I].EarlierRound ? I : Code[I].SameAs.value_or(I);
    if (Threads.empty()) {
      // No thread could be started: compile in order up to J here.
      while (Next <= J && Next < Code.size()) {
        compile(Code[Next]);
        Done[Next++] = 1;
      }
      return;
    }
    std::unique_lock<std::mutex> L(M);
    Ready.wait(L, [&] { return Done[J] != 0; });
  }

private:
  void work() {
    for (;;) {
      size_t I = Next++;
      if (I >= Code.size() || Stop)
        return;
      compile(Code[I]);
      {
        std::lock_guard<std::mutex> L(M);
        Done[I] = 1;
      }
      Ready.notify_all();
    }
  }

  void compile(Compiled &C) {
    if (!C.Error.empty() || C.SameAs)
      return;
    C.Cubin = compileCached(C.Source, FileName, Arch, Nvrtc,
                            Cache ? &*Cache : nullptr, C.Error);
  }

  std::vector<Compiled> &Code;
  std::string FileName, Arch, Nvrtc;
  std::optional<CompileCache> Cache;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  std::mutex M;
  std::condition_variable Ready;
  std::vector<char> Done;
  std::vector<std::thread> Threads;
};

/// Whether a kernel of work \p W is checked whole against the interpreter
/// (TuneOptions::WholeCheckFlops), else at sampled points and on the device.
bool checkedWhole(const KernelWork &W, const TuneOptions &Opts) {
  return W.Flops <= Opts.WholeCheckFlops &&
         W.BytesWritten <= Opts.WholeCheckBytes;
}

/// Checks candidates' outputs.
class Verifier {
public:
  /// \p Tf32: some candidates round f32 operands to tf32, and every
  /// candidate is held to that tolerance.
  Verifier(const Kernel &K, const HostData &Data, const TuneOptions &Opts,
           const KernelWork &Work, bool Tf32)
      : K(K), Data(Data), Whole(checkedWhole(Work, Opts)) {
    Cmp.Tf32 = Tf32;
    if (Whole) {
      Reference = Data;
      interpret(K, *Reference);
      Mask = writtenMask(K, *Reference);
      return;
    }
    // Each output's longest reduction, for checkOnDevice's tolerance,
    // computed here with isl: checkOnDevice runs on several lanes at once,
    // and isl objects of one context must not be touched from two threads.
    for (const Statement &S : K.Stmts) {
      double &L = Length[K.Args[S.Write.Arg].Name];
      L = std::max(L, reductionLength(S, Data.Params));
    }
    Mask = writtenMask(K, Data);
    // The interpreter's values at the sampled points, once for all
    // candidates, except for a statement reading what an earlier one
    // wrote: that one is checked on each candidate's values of it.
    std::set<unsigned> Written;
    for (unsigned S = 0; S < K.Stmts.size(); ++S) {
      const Statement &St = K.Stmts[S];
      auto Points =
          sampleOutputPoints(K, Data, S, Opts.SamplePoints, Opts.Seed + S);
      bool Depends =
          std::any_of(St.Reads.begin(), St.Reads.end(),
                      [&](const Access &A) { return Written.count(A.Arg); });
      if (Depends)
        Deferred.push_back({S, std::move(Points)});
      else
        Samples.push_back(pointReference(K, Data, S, std::move(Points)));
      Written.insert(St.Write.Arg);
    }
  }

  /// Whether candidates after the first verified one are checked on the
  /// device (checkOnDevice): where their outputs are too many to check
  /// whole against the interpreter, and no statement reads what an earlier
  /// one wrote (whose check needs the candidate's values of it).
  bool deviceChecks() const { return !Whole && Deferred.empty(); }
  /// Whether a candidate was verified already (check() keeps its outputs,
  /// which never change after).
  bool hasFirst() const { return First.has_value(); }
  /// The name of the buffer that holds \p Array's output of the first
  /// verified candidate on the device.
  static std::string referenceName(const std::string &Array) {
    return Array + ".reference";
  }

  /// Once a candidate is verified (hasFirst), its outputs become the
  /// references on the device of \p W: the buffers of referenceName, which
  /// every run uploads.
  void uploadReference(gpu::GpuWorker &W) const {
    assert(First && "no verified candidate yet");
    for (const Argument &A : K.Args)
      if (A.isArray() && A.Mode != ArgMode::In) {
        const HostArray &H = First->array(A.Name);
        std::memcpy(W.hostBuffer(referenceName(A.Name)), H.data(),
                    H.byteSize());
      }
  }

  /// Why the run whose outputs stayed on the device of \p W is wrong;
  /// empty if it is right. The sampled points are gathered into \p Cand and
  /// checked against the interpreter; every element is compared, on the
  /// device, with the first verified candidate's (twice the tolerance).
  std::string checkOnDevice(gpu::GpuWorker &W, HostData &Cand,
                            std::chrono::milliseconds Timeout) const {
    for (const PointReference &R : Samples) {
      const HostArray &Out = Cand.array(K.Args[K.Stmts[R.Stmt].Write.Arg].Name);
      std::vector<uint64_t> Offsets;
      for (long O : R.Offsets)
        if (O >= 0)
          Offsets.push_back(static_cast<uint64_t>(O));
      const std::string &Name = K.Args[K.Stmts[R.Stmt].Write.Arg].Name;
      unsigned Bytes = dtypeSize(Out.type());
      gpu::GatherResult G = W.gather(Name, Bytes, Offsets, Timeout);
      if (G.Status != gpu::Outcome::Ok)
        return "cannot read the sampled outputs back: " + G.Error;
      HostArray &Into = Cand.array(Name);
      for (size_t I = 0; I < Offsets.size(); ++I) {
        uint64_t B = 0;
        std::memcpy(&B, G.Bytes.data() + I * Bytes, Bytes);
        Into.setBits(Offsets[I], B);
      }
      ArrayComparison A = comparePoints(K, R, Cand, Cmp);
      if (!A.Ok)
        return "at sampled outputs: " + firstLine(A.Message);
    }
    std::vector<gpu::CompareSpec> Specs;
    std::vector<const Argument *> Arrays;
    for (const Argument &A : K.Args) {
      if (!A.isArray() || A.Mode == ArgMode::In)
        continue;
      Specs.push_back({A.Name, referenceName(A.Name), elementKind(A.Type),
                       poisonBits(A.Type),
                       2 * tolerance(A.Type, Length.at(A.Name), Cmp.Tf32)});
      Arrays.push_back(&A);
    }
    gpu::CompareResult C = W.compare(Specs, Timeout);
    if (C.Status != gpu::Outcome::Ok)
      return "cannot compare the outputs on the GPU: " + C.Error;
    for (size_t I = 0; I < Specs.size(); ++I) {
      const gpu::CompareStats &S = C.Stats[I];
      const Argument &A = *Arrays[I];
      double RelL2 = std::sqrt(S.Diff2) / std::max(std::sqrt(S.Ref2), DBL_MIN);
      bool TooFar = isFloat(A.Type) && RelL2 > Specs[I].Tolerance;
      if (!S.Bad && !TooFar)
        continue;
      std::string Msg =
          "against the first verified variant: array '" + A.Name + "': ";
      if (S.Bad) {
        // The first bad element, with both values.
        unsigned Bytes = dtypeSize(A.Type);
        gpu::GatherResult GC = W.gather(A.Name, Bytes, {S.FirstBad}, Timeout);
        gpu::GatherResult GR =
            W.gather(Specs[I].Reference, Bytes, {S.FirstBad}, Timeout);
        Msg += S.Bad == 1 ? "1 element differs, at offset "
                          : std::to_string(S.Bad) +
                                " elements differ, the first at offset ";
        Msg += std::to_string(S.FirstBad);
        if (GC.Status == gpu::Outcome::Ok && GR.Status == gpu::Outcome::Ok) {
          HostArray Two(A.Type, {2}, {1}, 2);
          uint64_t BC = 0, BR = 0;
          std::memcpy(&BC, GC.Bytes.data(), Bytes);
          std::memcpy(&BR, GR.Bytes.data(), Bytes);
          Two.setBits(0, BC);
          Two.setBits(1, BR);
          auto Text = [&](size_t At) {
            if (Two.bits(At) == poisonBits(A.Type))
              return std::string("unwritten (the poison pattern)");
            char Buf[64];
            if (isFloat(A.Type))
              std::snprintf(Buf, sizeof Buf, "%.9g", Two.getDouble(At));
            else
              std::snprintf(Buf, sizeof Buf, "%lld",
                            static_cast<long long>(Two.getInt(At)));
            return std::string(Buf);
          };
          Msg += ": " + Text(0) + " where the first verified variant has " +
                 Text(1);
        }
      } else {
        char Buf[96];
        std::snprintf(Buf, sizeof Buf,
                      "relative L2 error %.3g exceeds the tolerance %.3g",
                      RelL2, Specs[I].Tolerance);
        Msg += Buf;
      }
      return Msg;
    }
    return "";
  }

  /// Why the run \p Cand is wrong; empty if it is right. \p Cand is left
  /// as it was (its arrays are lent to the deferred statements' checks).
  std::string check(HostData &Cand) {
    if (Whole) {
      Comparison C = compareOutputs(K, *Reference, Cand, Mask, Cmp);
      return C.Ok ? "" : firstLine(C.message());
    }
    for (const PointReference &R : Samples) {
      ArrayComparison A = comparePoints(K, R, Cand, Cmp);
      if (!A.Ok)
        return "at sampled outputs: " + firstLine(A.Message);
    }
    if (!Deferred.empty()) {
      // The run's inputs with the candidate's values of what each
      // statement wrote, added statement by statement: the candidate's
      // arrays are swapped into a copy of the inputs made once, and back
      // once the points are compared, so that no array is copied per
      // candidate (a 16000^2 gemver's were 2 GB each).
      if (!In)
        In = Data;
      std::vector<std::string> Lent;
      std::string Why;
      unsigned Done = 0;
      for (const auto &[S, Points] : Deferred) {
        for (; Done < S; ++Done) {
          const std::string &Name = K.Args[K.Stmts[Done].Write.Arg].Name;
          if (std::find(Lent.begin(), Lent.end(), Name) != Lent.end())
            continue;
          std::swap(In->array(Name), Cand.array(Name));
          Lent.push_back(Name);
        }
        // The candidate's values of what S writes: lent already where an
        // earlier statement writes them too.
        const std::string &Out = K.Args[K.Stmts[S].Write.Arg].Name;
        bool OutLent = std::find(Lent.begin(), Lent.end(), Out) != Lent.end();
        ArrayComparison A =
            comparePoints(K, *In, OutLent ? *In : Cand, S, Points, Cmp);
        if (!A.Ok) {
          Why = "at sampled outputs: " + firstLine(A.Message);
          break;
        }
      }
      for (const std::string &Name : Lent)
        std::swap(In->array(Name), Cand.array(Name));
      if (!Why.empty())
        return Why;
    }
    // Every element: written at all, and close to the first verified run
    // (two float results each within the tolerance of the exact one).
    CompareOptions Twice = Cmp;
    Twice.ToleranceScale = 2;
    Comparison C = compareOutputs(K, First ? *First : Cand, Cand, Mask, Twice);
    if (!C.Ok)
      return (First ? "against the first verified variant: " : "") +
             firstLine(C.message());
    if (!First)
      First = Cand;
    return "";
  }

private:
  const Kernel &K;
  const HostData &Data;
  bool Whole;
  std::map<std::string, double> Length; // per output; not where Whole
  CompareOptions Cmp; // the tolerance: tf32 or not
  std::optional<HostData> Reference;
  std::optional<HostData> First;
  /// The inputs, into which check() lends a candidate's earlier outputs.
  std::optional<HostData> In;
  WrittenMask Mask;
  std::vector<PointReference> Samples;
  std::vector<std::pair<unsigned, std::vector<std::vector<long>>>> Deferred;
};

} // namespace

namespace {

/// Why a search found no winner. Internal to this file: tune() turns it
/// into a diagnostic at the kernel.
class TuneError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// tune() with its failures thrown: TuneError, TuningDBError (the
/// database) and gpu::WorkerError (the worker).
/// Says why a stored row cannot be used; the search replaces it.
using Warner = std::function<void(const std::string &)>;

/// Fills \p Result (its Key set) from \p Db; false where there is no
/// usable row. A row whose compiled code is damaged is a miss, told to
/// \p Warn.
bool readStored(TuningDB &Db, TuneResult &Result, const Warner &Warn) {
  auto Rec = Db.lookup(Result.Key);
  if (!Rec)
    return false;
  std::string Where = "the tuning database " + quote(Db.path().string());
  if (Rec->CodeDamaged) {
    Warn("the compiled code stored in " + Where +
         " does not match its hash; the kernel is tuned again");
    return false;
  }
  if (Rec->hasCode()) {
    auto Launches = decodeLaunches(Rec->Launches);
    if (!Launches) {
      Warn("the compiled code stored in " + Where + " cannot be read (" +
           Launches.failure().Message + "); the kernel is tuned again");
      return false;
    }
    Result.Launches = std::move(*Launches);
  }
  Result.FromDatabase = true;
  Result.Winner = std::move(*Rec);
  for (VariantResult &V : Db.variants(Result.Key)) {
    TunedVariant Row;
    Row.Result = std::move(V);
    Result.Variants.push_back(std::move(Row));
  }
  return true;
}

/// The result's fields that do not depend on the search.
TuneResult startResult(const TuneRequest &R, const TuneOptions &Opts,
                       const gpu::DeviceInfo &Dev) {
  TuneResult Result;
  Result.Key = tuningKey(R, plannerFor(Opts, Dev), Dev);
  Result.Work = countWork(*R.K, R.Params);
  Result.Database = Opts.DbPath.empty() ? defaultTuningDbPath()
                                        : std::filesystem::path(Opts.DbPath);
  return Result;
}

constexpr size_t NoRow = std::numeric_limits<size_t>::max();

/// Workers on the other GPUs of this host like \p W's (the same name and
/// compute capability, so that times compare), as many as Opts.Gpus
/// allows (0: all), started at once; none for fewer than 2 candidates. A
/// GPU whose worker cannot start is left out.
std::vector<std::unique_ptr<gpu::GpuWorker>>
startMoreWorkers(const gpu::GpuWorker &W, const TuneOptions &Opts,
                 size_t Candidates) {
  std::vector<std::unique_ptr<gpu::GpuWorker>> Out;
  const gpu::DeviceInfo &D = W.device();
  size_t Max = Opts.Gpus ? Opts.Gpus : static_cast<size_t>(D.DeviceCount);
  if (Max <= 1 || D.DeviceCount <= 1 || Candidates < 2)
    return Out;
  std::vector<std::future<std::unique_ptr<gpu::GpuWorker>>> Starting;
  for (int O = 0; O < D.DeviceCount; ++O)
    if (O != D.Ordinal)
      Starting.push_back(
          std::async(std::launch::async,
                     [O, Path = W.path()]() -> std::unique_ptr<gpu::GpuWorker> {
                       try {
                         return std::make_unique<gpu::GpuWorker>(Path, O);
                       } catch (std::exception &) {
                         return nullptr;
                       }
                     }));
  for (auto &F : Starting) {
    std::unique_ptr<gpu::GpuWorker> X = F.get();
    if (X && X->device().Name == D.Name && X->device().CcMajor == D.CcMajor &&
        X->device().CcMinor == D.CcMinor && Out.size() + 1 < Max)
      Out.push_back(std::move(X));
  }
  return Out;
}

/// After the search, timed over the short window (TuneOptions::
/// ScreenSeconds) and perhaps on several GPUs: the fastest few verified
/// candidates (of \p Rows, whose programs \p Code holds) timed again
/// over the whole window on \p W, the GPU the winner runs on, their times
/// replaced (and those of the rows that share their code, by
/// \p SameSource); returns the row of the fastest.
size_t retimeFastest(std::vector<TunedVariant> &Rows,
                     const std::vector<Compiled> &Code,
                     const std::vector<size_t> &SameSource, isl::ctx Ctx,
                     const HostData &Data, gpu::GpuWorker &W,
                     const TuneOptions &Opts, TuneResult &Result) {
  const size_t Retimed = Opts.Retimed;
  std::vector<size_t> Order;
  for (size_t I = 0; I < Rows.size(); ++I)
    if (Rows[I].Result.Seconds && !Rows[I].SameAs)
      Order.push_back(I);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return *Rows[A].Result.Seconds < *Rows[B].Result.Seconds;
  });
  if (Order.size() > Retimed)
    Order.resize(Retimed);
  auto Start = Clock::now();
  for (size_t I : Order) {
    auto Planned = programLaunches(Ctx, *Code[I].Program, Data);
    if (!Planned)
      continue; // it ran elsewhere: cannot happen
    gpu::LoadResult L = W.load(Code[I].Cubin, *Planned);
    if (L.Status != gpu::Outcome::Ok)
      continue;
    gpu::TimeResult T = W.time(
        *Planned, Opts.Warmup, Opts.MinTimeSeconds, Opts.MinRepeats,
        Opts.MaxRepeats, Opts.RunTimeout * (Opts.Warmup + Opts.MinRepeats + 1));
    if (T.Status != gpu::Outcome::Ok)
      continue;
    for (size_t J = 0; J < Rows.size(); ++J)
      if (J == I || SameSource[J] == I) {
        Rows[J].Result.Seconds = T.MedianSeconds;
        Rows[J].Repeats = T.Repeats;
        Rows[J].GFlops = Result.Work.Flops / T.MedianSeconds / 1e9;
        Rows[J].GBytesPerSecond = Result.Work.bytes() / T.MedianSeconds / 1e9;
        Rows[J].Gpu = W.device().Ordinal;
      }
  }
  Result.TimingSeconds +=
      std::chrono::duration<double>(Clock::now() - Start).count();
  size_t Best = NoRow;
  for (size_t I = 0; I < Rows.size(); ++I)
    if (Rows[I].Result.Seconds && !Rows[I].SameAs &&
        (Best == NoRow || *Rows[I].Result.Seconds < *Rows[Best].Result.Seconds))
      Best = I;
  return Best;
}

/// Timed variants of earlier searches that a learned search reads, at
/// most: the newest.
constexpr size_t MaxEarlierRows = 5000;

/// The occupancy round's candidates (TuneOptions::OccupancyTries): of the
/// verified \p Rows of one-kernel variants, fastest first, at most \p Count
/// whose registers bound the blocks each multiprocessor holds (65,536
/// registers per multiprocessor, allocated per warp in units of 256), each
/// with the blocks to ask for: one more, where the threads allow it (2,048
/// per multiprocessor at most) and each thread keeps 32 registers or more.
static std::vector<std::pair<size_t, long>>
moreBlocksCandidates(const std::vector<Variant> &Vs,
                     const std::vector<TunedVariant> &Rows, size_t Count) {
  std::vector<size_t> Order;
  for (size_t I = 0; I < Rows.size(); ++I) {
    const TunedVariant &Row = Rows[I];
    if (Row.Result.Status == VariantStatus::Ok && Row.Result.Seconds &&
        !Row.SameAs && Vs[Row.Rank].Schedules.size() == 1 &&
        Vs[Row.Rank].Schedules.front().MinBlocks == 0)
      Order.push_back(I);
  }
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return *Rows[A].Result.Seconds < *Rows[B].Result.Seconds;
  });
  std::vector<std::pair<size_t, long>> Out;
  for (size_t I : Order) {
    if (Out.size() >= Count)
      break;
    const TunedVariant &Row = Rows[I];
    long Threads = Vs[Row.Rank].Schedules.front().totalThreads();
    long Warps = (Threads + 31) / 32;
    long Blocks = Row.BlocksPerMultiprocessor;
    if (Row.Registers <= 0 || Blocks <= 0 || Warps <= 0)
      continue;
    long PerWarp = (Row.Registers * 32 + 255) / 256 * 256;
    bool RegisterBound = 65536 / (PerWarp * Warps) == Blocks;
    long Wanted = Blocks + 1;
    long Allowed = 65536 / (Wanted * Warps * 32) / 8 * 8;
    if (RegisterBound && Wanted <= 32 && Wanted * Threads <= 2048 &&
        Allowed >= 32)
      Out.push_back({I, Wanted});
  }
  return Out;
}

TuneResult search(const TuneRequest &R, const TuneOptions &Opts,
                  gpu::GpuWorker &W, const Warner &Warn) {
  auto Start = Clock::now();
  const Kernel &K = *R.K;
  TuneResult Result = startResult(R, Opts, W.device());
  TuningDB Db(Result.Database);
  Result.DatabaseInMemory = Db.inMemory();
  bool One = !Opts.Variant.empty();
  if (!Opts.Retune && !One && readStored(Db, Result, Warn))
    return Result;

  auto Planning = Clock::now();
  std::vector<Variant> Vs;
  // A schedule string is parsed; only a rank needs the planner's list.
  if (!One || !namesSchedule(Opts.Variant)) {
    auto Planned = planVariants(*R.Source, R.KernelIndex,
                                plannerFor(Opts, W.device()), Opts.Jobs);
    if (!Planned)
      throw TuneError(Planned.failure().Message);
    Vs = std::move(*Planned);
  }
  if (One) {
    auto V = chooseVariant(K, Vs, Opts.Variant);
    if (!V)
      throw TuneError("--variant=" + Opts.Variant + ": " +
                      V.failure().Message);
    Vs = {std::move(*V)};
  }
  Result.PlannedVariants = Vs.size();
  size_t Budget = Opts.Budget ? Opts.Budget : TuneOptions::DefaultBudget;
  size_t N = Opts.Exhaustive ? Vs.size() : std::min(Budget, Vs.size());
  // Two rounds where the budget leaves variants out (Tuner/Search.h): a
  // spread of the families first, then the families that measured
  // fastest.
  std::vector<std::string> Names;
  for (const Variant &V : Vs)
    Names.push_back(V.Name);
  // What the learned search knows of each variant; stored with every
  // search's results, for later learned searches.
  std::vector<std::vector<double>> Features;
  {
    double BestCost = 0;
    for (const Variant &V : Vs)
      if (V.Cost > 0 && (BestCost == 0 || V.Cost < BestCost))
        BestCost = V.Cost;
    for (const Variant &V : Vs)
      Features.push_back(variantFeatures(K, V, BestCost,
                                         W.device().Multiprocessors,
                                         W.device().SharedPerMultiprocessor));
  }
  bool Learned = Opts.Search == TuneOptions::SearchKind::Learned;
  bool TwoRounds =
      (Opts.Search == TuneOptions::SearchKind::Families || Learned) &&
      N < Vs.size() && N >= 4;
  std::vector<size_t> Pick;
  if (TwoRounds) {
    Pick = familiesFirst(Names, N);
  } else {
    for (size_t I = 0; I < N; ++I)
      Pick.push_back(I);
  }

  auto Preparing = Clock::now();
  Result.PlanSeconds =
      std::chrono::duration<double>(Preparing - Planning).count();
  std::string Error;
  auto Data = makeHostData(K, R.Params, Error);
  if (!Data)
    throw TuneError("cannot run kernel " + quote(K.Name) + ": " + Error);
  fillRandom(K, *Data, Opts.Seed);
  // Where the checks after the first verified candidate run on the device
  // (Verifier::deviceChecks), each output has a buffer for the first
  // verified candidate's values, uploaded with the inputs.
  bool DeviceChecks = !checkedWhole(Result.Work, Opts) &&
                      !readsEarlierOutput(K) && Opts.DeviceChecks;
  std::vector<gpu::BufferSpec> Buffers;
  for (const Argument &A : K.Args)
    if (A.isArray())
      Buffers.push_back(
          {A.Name, Data->array(A.Name).byteSize(), A.Mode != ArgMode::In});
  if (DeviceChecks)
    for (const Argument &A : K.Args)
      if (A.isArray() && A.Mode != ArgMode::In)
        Buffers.push_back({Verifier::referenceName(A.Name),
                           Data->array(A.Name).byteSize(), false});
  // The comparison kernels compile in the background (or come from the
  // cache), ready when the first candidate is verified.
  std::future<std::string> CheckerImage;
  if (DeviceChecks)
    CheckerImage =
        std::async(std::launch::async, [&Opts, Arch = W.device().arch()] {
          std::optional<CompileCache> Cache = openCompileCache(Opts);
          std::string Error; // compare() compiles again, and says why
          return compileCached(gpu::checkerSource(), "loopy-check.cu", Arch,
                               nvrtcVersionString(), Cache ? &*Cache : nullptr,
                               Error);
        });
  // One lane per GPU the search runs on: its worker, its copy of the
  // candidates' outputs and its isl context (programLaunches); W is lane 0,
  // the GPU the winner will run on.
  struct Lane {
    gpu::GpuWorker *W;
    HostData Cand;
    std::unique_ptr<IslContext> Isl = std::make_unique<IslContext>();
    bool HasReference = false;
    /// The worker's output buffers in host memory hold the outputs'
    /// poisoned (or, for inout, initial) values: no run has copied its
    /// outputs back over them since they were written.
    bool HostOutputsInitial = false;
  };
  std::vector<std::unique_ptr<gpu::GpuWorker>> MoreWorkers =
      startMoreWorkers(W, Opts, N);
  // A lane's candidate data holds the outputs alone: the checks read the
  // inputs from Data.
  auto Outputs = [&] {
    HostData O;
    O.Params = Data->Params;
    O.Scalars = Data->Scalars;
    for (const Argument &A : K.Args)
      if (A.isArray() && A.Mode != ArgMode::In)
        O.Arrays.emplace(A.Name, Data->array(A.Name));
    return O;
  };
  std::vector<Lane> Lanes;
  Lanes.push_back({&W, Outputs()});
  for (auto &X : MoreWorkers)
    Lanes.push_back({X.get(), Outputs()});
  for (Lane &L : Lanes) {
    L.W->setBuffers(Buffers);
    for (auto &[Name, A] : Data->Arrays)
      std::memcpy(L.W->hostBuffer(Name), A.data(), A.byteSize());
  }
  Result.Gpus = Lanes.size();

  auto Since = [](Clock::time_point T) {
    return std::chrono::duration<double>(Clock::now() - T).count();
  };
  Result.PrepareSeconds = Since(Preparing);
  auto Lowering = Clock::now();
  // The code identities of every candidate lowered, across rounds.
  std::map<std::string, size_t> Seen;
  std::vector<Compiled> Code =
      lowerCandidates(R, Vs, Pick, Opts, true, Seen, 0);
  Result.CompileSeconds = Since(Lowering);
  std::optional<Verifier> CheckHolder;
  IslContext Isl;
  ProgressBar Bar(Opts.Progress, "tuning " + K.Name, N);
  // What the lanes share, under M: the best so far, the progress bar, the
  // verifier's first verified candidate, the comparison kernels' image and
  // the phases' seconds (summed over the lanes).
  std::mutex M;
  double Best = 0;
  size_t BestIdx = std::numeric_limits<size_t>::max();
  size_t Finished = 0;
  std::optional<std::string> CheckerCubin;
  std::vector<TunedVariant> Rows;
  // Of each row with a better-ranked one's code, that one's row.
  std::vector<size_t> SameSource;

  // Verifies and times candidate \p B of \p Batch (row \p I) on lane \p L.
  auto RunOne = [&](std::vector<Compiled> &Batch, BackgroundCompiler &Compiler,
                    Verifier &Check, size_t B, size_t I, Lane &L) {
    gpu::GpuWorker &LW = *L.W;
    TunedVariant &Row = Rows[I];
    VariantResult &VR = Row.Result;
    Row.Gpu = LW.device().Ordinal;
    auto Fail = [&](VariantStatus S, std::string Why) {
      VR.Status = S;
      std::replace(Why.begin(), Why.end(), '\n', ' ');
      VR.Reason = std::move(Why);
    };
    double CompileWait = 0, RunTime = 0, CheckTime = 0, TimingTime = 0;
    auto Account = [&] {
      std::lock_guard<std::mutex> G(M);
      Result.CompileSeconds += CompileWait;
      Result.RunSeconds += RunTime;
      Result.CheckSeconds += CheckTime;
      Result.TimingSeconds += TimingTime;
      Bar.update(++Finished, Best);
    };
    auto Start = Clock::now();
    Compiler.wait(B);
    CompileWait = Since(Start);
    if (!Batch[B].Error.empty()) {
      Fail(VariantStatus::Failed, Batch[B].Error);
      return Account();
    }
    auto Planned = programLaunches(L.Isl->get(), *Batch[B].Program, *Data);
    if (!Planned) {
      Fail(VariantStatus::Dropped, Planned.failure().Message);
      return Account();
    }
    std::vector<gpu::Launch> Launches = std::move(*Planned);
    Start = Clock::now();
    gpu::LoadResult LR = LW.load(Batch[B].Cubin, Launches);
    RunTime += Since(Start);
    if (LR.Status != gpu::Outcome::Ok) {
      Fail(VariantStatus::Failed, LR.Error);
      return Account();
    }
    // Over a resource limit: dropped before it runs, with the reason.
    std::string Drop;
    for (size_t F = 0; F < LR.Functions.size(); ++F) {
      const gpu::FunctionInfo &FI = LR.Functions[F];
      const gpu::Launch &LA = Launches[F];
      long Threads = long(LA.Block[0]) * LA.Block[1] * LA.Block[2];
      Row.Registers = std::max(Row.Registers, FI.Registers);
      Row.BlocksPerMultiprocessor = FI.BlocksPerMultiprocessor;
      if (FI.LocalBytes > 0)
        Drop = FI.Name + " spills: " + std::to_string(FI.LocalBytes) +
               " bytes of local memory per thread (" +
               std::to_string(FI.Registers) + " registers)";
      else if (Threads > FI.MaxThreads)
        Drop = FI.Name + " needs " + std::to_string(FI.Registers) +
               " registers per thread, so blocks of at most " +
               std::to_string(FI.MaxThreads) + " threads can launch, not " +
               std::to_string(Threads);
    }
    if (!Drop.empty()) {
      Fail(VariantStatus::Dropped, Drop);
      return Account();
    }
    // After the first verified candidate, the outputs may stay on the
    // device, compared there with that one's.
    bool OnDevice = false;
    if (DeviceChecks && Check.deviceChecks()) {
      std::lock_guard<std::mutex> G(M);
      OnDevice = Check.hasFirst();
      if (OnDevice && !CheckerCubin)
        CheckerCubin = CheckerImage.valid() ? CheckerImage.get() : "";
    }
    if (OnDevice && !L.HasReference) {
      Check.uploadReference(LW);
      LW.setCheckerImage(*CheckerCubin);
      L.HasReference = true;
    }
    // Before each run the outputs go back to their poisoned (or, for
    // inout, initial) state: on the device, from the copies the worker
    // kept of the last run that uploaded every buffer, else from the host
    // buffers, which keep it until a run copies its outputs back; the
    // inputs are never copied back.
    if (!LW.restoresOutputs() && !L.HostOutputsInitial) {
      for (const gpu::BufferSpec &Buf : Buffers)
        if (Buf.Output)
          std::memcpy(LW.hostBuffer(Buf.Name), Data->array(Buf.Name).data(),
                      Buf.Bytes);
      L.HostOutputsInitial = true;
    }
    Start = Clock::now();
    gpu::RunResult Run = LW.run(Launches, Opts.RunTimeout, !OnDevice, true);
    if (!OnDevice)
      L.HostOutputsInitial = false;
    double RunSeconds = Since(Start);
    RunTime += RunSeconds;
    if (Run.Status != gpu::Outcome::Ok) {
      Fail(VariantStatus::Failed,
           Run.Status == gpu::Outcome::TimedOut
               ? "timed out after " +
                     std::to_string(Opts.RunTimeout.count() / 1000) +
                     " s (the worker was stopped)"
               : Run.Error);
      return Account();
    }
    Start = Clock::now();
    std::string Wrong;
    if (OnDevice) {
      Wrong = Check.checkOnDevice(LW, L.Cand, Opts.RunTimeout);
    } else {
      for (const gpu::BufferSpec &Buf : Buffers)
        if (Buf.Output)
          std::memcpy(L.Cand.array(Buf.Name).data(), LW.hostBuffer(Buf.Name),
                      Buf.Bytes);
      std::lock_guard<std::mutex> G(M);
      Wrong = Check.check(L.Cand);
    }
    CheckTime += Since(Start);
    if (!Wrong.empty()) {
      // A wrong kernel may have written into an input too.
      LW.refreshInputs();
      Fail(VariantStatus::Wrong, Wrong);
      return Account();
    }
    // A variant far slower than the best so far is timed once: it cannot
    // win, and its repeats would only cost time.
    bool Hopeless;
    {
      std::lock_guard<std::mutex> G(M);
      Hopeless = Best > 0 && RunSeconds > 20 * Best + 0.05;
    }
    Start = Clock::now();
    gpu::TimeResult T = LW.time(
        Launches, Hopeless ? 0 : Opts.Warmup,
        Hopeless ? 0 : Opts.ScreenSeconds, Hopeless ? 1 : Opts.ScreenRepeats,
        Opts.MaxRepeats,
        Opts.RunTimeout * (Opts.Warmup + Opts.ScreenRepeats + 1));
    TimingTime += Since(Start);
    if (T.Status != gpu::Outcome::Ok) {
      Fail(VariantStatus::Failed, T.Status == gpu::Outcome::TimedOut
                                      ? "timed out while timing"
                                      : T.Error);
      return Account();
    }
    VR.Seconds = T.MedianSeconds;
    Row.Repeats = T.Repeats;
    Row.GFlops = Result.Work.Flops / T.MedianSeconds / 1e9;
    Row.GBytesPerSecond = Result.Work.bytes() / T.MedianSeconds / 1e9;
    {
      std::lock_guard<std::mutex> G(M);
      // Ties go to the better-ranked candidate, as in a search on one GPU.
      if (Best == 0 || T.MedianSeconds < Best ||
          (T.MedianSeconds == Best && I < BestIdx)) {
        Best = T.MedianSeconds;
        BestIdx = I;
      }
    }
    Account();
  };

  // Runs the candidates \p Pick, lowered in \p Batch, as round \p Round;
  // their rows and code join Rows and Code.
  auto RunRound = [&](std::vector<Compiled> Batch,
                      const std::vector<size_t> &Pick, unsigned Round) {
    size_t Base = Rows.size();
    Rows.resize(Base + Batch.size());
    SameSource.resize(Rows.size(), NoRow);
    for (size_t B = 0; B < Batch.size(); ++B) {
      Rows[Base + B].Rank = Pick[B];
      Rows[Base + B].Round = Round;
      Rows[Base + B].Result.Schedule = Vs[Pick[B]].Name;
      Rows[Base + B].Result.Features = encodeFeatures(Features[Pick[B]]);
    }
    // NVRTC runs in the background from here on, best ranked first, while
    // the reference is computed and the compiled candidates run.
    BackgroundCompiler Compiler(Batch, K.Name + ".cu", W.device().arch(), Opts);
    if (!CheckHolder) {
      auto CheckStart = Clock::now();
      CheckHolder.emplace(K, *Data, Opts, Result.Work,
                          std::any_of(Vs.begin(), Vs.end(),
                                      [](const Variant &V) { return V.tf32(); }));
      Result.CheckSeconds += Since(CheckStart);
    }
    // Each lane takes the next candidate, in rank order, until none is
    // left; a candidate with a better-ranked one's code takes its result
    // once all have run.
    std::atomic<size_t> Next{0};
    auto Work = [&](Lane &L) {
      for (;;) {
        size_t B = Next++;
        if (B >= Batch.size())
          return;
        if (!Batch[B].SameAs)
          RunOne(Batch, Compiler, *CheckHolder, B, Base + B, L);
      }
    };
    if (Lanes.size() == 1) {
      Work(Lanes[0]);
    } else {
      std::vector<std::future<void>> Running;
      for (Lane &L : Lanes)
        Running.push_back(std::async(std::launch::async, Work, std::ref(L)));
      for (std::future<void> &F : Running)
        F.get();
    }
    for (size_t B = 0; B < Batch.size(); ++B) {
      if (!Batch[B].SameAs)
        continue;
      // The same program as a better-ranked candidate: its result.
      TunedVariant &Row = Rows[Base + B];
      const TunedVariant &Same =
          Rows[Batch[B].EarlierRound ? *Batch[B].SameAs
                                     : Base + *Batch[B].SameAs];
      Row.Result.Status = Same.Result.Status;
      Row.Result.Seconds = Same.Result.Seconds;
      Row.Result.Reason = "same code as " + Same.Result.Schedule;
      if (!Same.Result.Reason.empty())
        Row.Result.Reason += " (" + Same.Result.Reason + ")";
      Row.Repeats = Same.Repeats;
      Row.GFlops = Same.GFlops;
      Row.GBytesPerSecond = Same.GBytesPerSecond;
      Row.Registers = Same.Registers;
      Row.BlocksPerMultiprocessor = Same.BlocksPerMultiprocessor;
      Row.Gpu = Same.Gpu;
      Row.SameAs = true;
      SameSource[Base + B] = &Same - Rows.data();
      ++Result.SameCode;
    }
    for (Compiled &C : Batch)
      Code.push_back(std::move(C));
  };
  // Lowers the candidates \p Next (each program compared with those of
  // every earlier round) and runs them as round \p Round.
  auto LowerAndRun = [&](const std::vector<size_t> &Next, unsigned Round) {
    auto Begun = Clock::now();
    std::vector<Compiled> More =
        lowerCandidates(R, Vs, Next, Opts, false, Seen, Rows.size());
    Result.CompileSeconds += Since(Begun);
    RunRound(std::move(More), Next, Round);
  };
  std::vector<Compiled> First = std::move(Code);
  Code.clear();
  RunRound(std::move(First), Pick, 1);
  // Timed variants of earlier searches on this GPU teach the model too.
  std::vector<std::pair<std::vector<double>, double>> Earlier;
  if (TwoRounds && Learned)
    for (const TuningDB::Measured &M :
         Db.measured(Result.Key.Device, Result.Key, MaxEarlierRows))
      if (auto F = decodeFeatures(M.Features))
        Earlier.push_back({std::move(*F), std::log(M.OverBest)});
  Result.EarlierTimings = Earlier.size();
  // The budget counts programs run: a candidate with a better-ranked one's
  // code takes its result without running, and a further round takes its
  // place. The families search's second round takes the rest of the
  // budget; the learned search's rounds take half of what is left each (at
  // least 4), the model refit before each; the ranked search's next round
  // takes the next ranked. Lowering stops at four times the budget.
  auto Distinct = [&] {
    return size_t(std::count_if(Rows.begin(), Rows.end(),
                                [](const TunedVariant &T) { return !T.SameAs; }));
  };
  for (unsigned Round = 2; Distinct() < N && Rows.size() < Vs.size() &&
                           Rows.size() < 4 * N;
       ++Round) {
    std::vector<size_t> Done;
    std::vector<std::optional<double>> Seconds;
    for (const TunedVariant &Row : Rows) {
      Done.push_back(Row.Rank);
      Seconds.push_back(Row.Result.Seconds);
    }
    size_t Left = N - Distinct();
    std::vector<std::optional<double>> Predicted;
    std::vector<size_t> Next;
    if (!TwoRounds) {
      std::vector<bool> Ran(Vs.size(), false);
      for (size_t D : Done)
        Ran[D] = true;
      for (size_t I = 0; I < Vs.size() && Next.size() < Left; ++I)
        if (!Ran[I])
          Next.push_back(I);
    } else if (Learned) {
      Next = learnedNext(Features, Done, Seconds,
                         Left <= 4 ? Left : std::max<size_t>(4, Left / 2),
                         Earlier, &Predicted);
    } else {
      Next = fastestFamiliesNext(Names, Done, Seconds, Left);
    }
    if (Next.empty())
      break;
    size_t RoundBase = Rows.size();
    LowerAndRun(Next, Round);
    for (size_t I = 0; I < Predicted.size() && RoundBase + I < Rows.size(); ++I)
      Rows[RoundBase + I].PredictedSeconds = Predicted[I];
  }
  // The occupancy round: the fastest one-kernel variants whose registers
  // bounded their blocks per multiprocessor, again with one block more
  // asked of the compiler.
  if (Opts.OccupancyTries > 0 && !One) {
    unsigned Round = 1;
    for (const TunedVariant &Row : Rows)
      Round = std::max(Round, Row.Round);
    std::vector<size_t> Next;
    for (const auto &[Row, Blocks] :
         moreBlocksCandidates(Vs, Rows, Opts.OccupancyTries)) {
      Variant V = Vs[Rows[Row].Rank];
      V.Schedules.front().MinBlocks = Blocks;
      V.Name += " minblocks:" + std::to_string(Blocks);
      Next.push_back(Vs.size());
      Names.push_back(V.Name);
      Features.push_back(Features[Rows[Row].Rank]);
      Vs.push_back(std::move(V));
    }
    if (!Next.empty()) {
      LowerAndRun(Next, Round + 1);
      Result.OccupancyRuns = Next.size();
    }
  }
  {
    std::vector<double> Errors;
    for (const TunedVariant &Row : Rows)
      if (Row.PredictedSeconds && Row.Result.Seconds && !Row.SameAs)
        Errors.push_back(
            std::fabs(std::log(*Row.Result.Seconds / *Row.PredictedSeconds)));
    if (!Errors.empty()) {
      std::nth_element(Errors.begin(), Errors.begin() + Errors.size() / 2,
                       Errors.end());
      Result.PredictionError = std::exp(Errors[Errors.size() / 2]);
    }
  }
  Bar.update(N, Best);
  if (Opts.Retimed > 0)
    BestIdx = retimeFastest(Rows, Code, SameSource, Lanes.front().Isl->get(),
                            *Data, W, Opts, Result);

  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const TunedVariant &A, const TunedVariant &B) {
                     bool AOk = A.Result.Seconds.has_value();
                     bool BOk = B.Result.Seconds.has_value();
                     if (AOk != BOk)
                       return AOk;
                     return AOk && *A.Result.Seconds < *B.Result.Seconds;
                   });
  if (BestIdx == std::numeric_limits<size_t>::max()) {
    std::string Why = "no variant of kernel " + quote(K.Name) +
                      " ran correctly on the GPU (" + std::to_string(N) +
                      " tried)";
    if (!Rows.empty())
      Why += "; the first, " + Rows.front().Result.Schedule + ", " +
             variantStatusName(Rows.front().Result.Status) + ": " +
             Rows.front().Result.Reason;
    throw TuneError(Why);
  }
  const TunedVariant &Win = Rows.front();
  TuningRecord &Rec = Result.Winner;
  Rec.Schedule = Win.Result.Schedule;
  Rec.CudaSource = Code[BestIdx].Source;
  Rec.MedianSeconds = *Win.Result.Seconds;
  Rec.GFlops = Win.GFlops;
  Rec.GBytesPerSecond = Win.GBytesPerSecond;
  Rec.VariantsTimed = static_cast<int64_t>(
      std::count_if(Rows.begin(), Rows.end(), [](const TunedVariant &V) {
        return V.Result.Seconds.has_value() && !V.SameAs;
      }));
  Rec.TuningSeconds =
      std::chrono::duration<double>(Clock::now() - Start).count();
  Rec.Timestamp = static_cast<int64_t>(std::time(nullptr));
  Rec.LoopycVersion = LOOPY_VERSION;
  // The winner's code, so that reading it back compiles nothing.
  auto Launches = encodeLaunches(Isl.get(), *Code[BestIdx].Program, R.Params);
  if (Launches) {
    Rec.Cubin = Code[BestIdx].Cubin;
    Rec.Launches = std::move(*Launches);
    Result.Launches = std::move(*decodeLaunches(Rec.Launches));
  }
  Result.Variants = std::move(Rows);
  std::vector<VariantResult> Stored;
  for (const TunedVariant &V : Result.Variants)
    Stored.push_back(V.Result);
  if (!One)
    Db.store(Result.Key, Rec, Stored);
  Result.OneVariant = One;
  return Result;
}

} // namespace

Expected<TuneResult> tune(const TuneRequest &R, const TuneOptions &Opts,
                          gpu::GpuWorker &W, DiagnosticEngine &Diags) {
  auto Warn = [&](const std::string &Msg) { Diags.warning(R.K->Loc, Msg); };
  try {
    return search(R, Opts, W, Warn);
  } catch (TuneError &E) {
    Diags.error(R.K->Loc, E.what());
  } catch (TuningDBError &E) {
    Diags.error(E.what());
  } catch (gpu::WorkerError &E) {
    return Failure::internal(E.what());
  }
  return Failure::user("");
}

Expected<std::optional<TuneResult>> lookupTuned(const TuneRequest &R,
                                                const TuneOptions &Opts,
                                                const gpu::DeviceInfo &Dev,
                                                DiagnosticEngine &Diags) {
  if (Opts.Retune)
    return std::optional<TuneResult>();
  auto Warn = [&](const std::string &Msg) { Diags.warning(R.K->Loc, Msg); };
  try {
    TuneResult Result = startResult(R, Opts, Dev);
    TuningDB Db(Result.Database);
    Result.DatabaseInMemory = Db.inMemory();
    if (!readStored(Db, Result, Warn))
      return std::optional<TuneResult>();
    return std::optional<TuneResult>(std::move(Result));
  } catch (TuningDBError &E) {
    Diags.error(E.what());
  }
  return Failure::user("");
}

} // namespace loopy
