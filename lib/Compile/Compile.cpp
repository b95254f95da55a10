//===- Compile.cpp - The one way into the compiler ------------------------===//
#include "loopy/Compile/Compile.h"

#include "loopy/Analysis/Checks.h"
#include "loopy/Support/Parallel.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Runtime/Nvrtc.h"
#include "loopy/Schedule/MergeIndices.h"
#include "loopy/Sema/Sema.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace loopy {

namespace {

/// What isl's operations quota running out while \p Doing says.
std::string quotaMessage(unsigned long Max, const std::string &Doing) {
  return "isl exceeded its limit of " + std::to_string(Max) +
         " operations while " + Doing +
         "; simplify the domain or raise --isl-max-operations";
}

/// Runs \p Step under isl's operations quota \p Max on \p Ctx, counted
/// from zero. Past the quota, isl fails in the call that hit it (an
/// exception_quota from the C++ bindings) or, after a C call, in a later
/// call that got its null result, or leaves the quota as the context's
/// last error: each is a user Failure saying what \p Doing ran out,
/// another isl failure an internal one.
template <class T, class F>
Expected<T> underQuota(isl_ctx *Ctx, unsigned long Max,
                       const std::string &Doing, F Step) {
  IslMaxOperationsGuard Quota(Ctx, Max);
  std::optional<Expected<T>> R;
  try {
    R.emplace(Step());
  } catch (isl::exception &E) {
    if (!dynamic_cast<isl::exception_quota *>(&E) && !Quota.hasQuotaExceeded())
      return Failure::internal(islFailureText(Ctx, E));
    R.emplace(Failure::quota(quotaMessage(Max, Doing)));
  }
  if (Quota.hasQuotaExceeded())
    return Failure::quota(quotaMessage(Max, Doing));
  return std::move(*R);
}

} // namespace

//===----------------------------------------------------------------------===//
// Source to checked kernels
//===----------------------------------------------------------------------===//

CheckedSource::CheckedSource(std::shared_ptr<const SourceManager> SM,
                             CheckOptions Opts)
    : SM(std::move(SM)), Opts(std::move(Opts)) {}

CheckedSource::~CheckedSource() = default;

std::optional<size_t> CheckedSource::findKernel(const std::string &Name) const {
  for (size_t I = 0; I < Kernels.size(); ++I)
    if (Kernels[I].Name == Name)
      return I;
  return std::nullopt;
}

Expected<const Kernel *> CheckedSource::parametricKernel(size_t KI) {
  if (Opts.Defines.empty())
    return &Kernels.at(KI);
  if (Parametric.empty()) {
    std::ostringstream Messages;
    DiagnosticEngine Diags(SM.get(), Messages);
    std::vector<Kernel> Built;
    try {
      Built = buildKernels(Module, Isl.get(), *SM, Diags, SemaOptions{});
    } catch (TooManyErrors &) {
    } catch (isl::exception &E) {
      return Failure::internal(islFailureText(Isl.raw(), E));
    }
    // Sema leaves a statement with an error out of its kernel; what remains
    // would be a different kernel.
    if (Diags.hasErrors() || Built.size() != Kernels.size())
      return Failure::user("the kernels of " + quote(SM->name()) +
                           " do not build without -D values:\n" +
                           Messages.str());
    Parametric = std::move(Built);
  }
  return &Parametric.at(KI);
}

Expected<Kernel> CheckedSource::rebuildKernel(size_t KI, isl::ctx Ctx) const {
  std::ostringstream Messages; // the text was checked already
  DiagnosticEngine Diags(SM.get(), Messages);
  std::vector<Kernel> Built;
  try {
    SemaOptions SO;
    SO.Defines = Opts.Defines;
    Built = buildKernels(Module, Ctx, *SM, Diags, SO);
  } catch (TooManyErrors &) {
  } catch (isl::exception &E) {
    return Failure::internal(islFailureText(Ctx.get(), E));
  }
  if (Diags.hasErrors() || KI >= Built.size())
    return Failure::internal("the kernel could not be rebuilt: " +
                             Messages.str());
  return std::move(Built[KI]);
}

Expected<std::unique_ptr<CheckedSource>>
checkSource(std::shared_ptr<const SourceManager> SM, const CheckOptions &Opts,
            DiagnosticEngine &Diags) {
  std::unique_ptr<CheckedSource> C(new CheckedSource(SM, Opts));
  try {
    C->Module = parseModule(*SM, Diags);
    // The quota bounds the checks only: printing what passed them is cheap,
    // and must not fail half-way.
    IslMaxOperationsGuard Quota(C->Isl.raw(), Opts.IslMaxOperations);
    try {
      SemaOptions SO;
      SO.Defines = Opts.Defines;
      C->Kernels = buildKernels(C->Module, C->Isl.get(), *SM, Diags, SO);
      for (const Kernel &K : C->Kernels)
        checkKernel(K, Diags);
    } catch (isl::exception &E) {
      // Past the quota, isl fails in the call that hit it (an
      // exception_quota from the C++ bindings) or, after a C call, in a
      // later call that got its null result.
      if (!dynamic_cast<isl::exception_quota *>(&E) &&
          !Quota.hasQuotaExceeded())
        throw;
      Diags.error(quotaMessage(Opts.IslMaxOperations,
                               "checking " + quote(SM->name())));
      return Failure::user("");
    }
  } catch (TooManyErrors &) {
    return Failure::user("");
  } catch (isl::exception &E) {
    return Failure::internal(islFailureText(C->Isl.raw(), E));
  }
  if (Diags.hasErrors())
    return Failure::user("");
  return C;
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

/// planVariants' work, on \p Threads where given.
static Expected<std::vector<Variant>> plan(const Kernel &K,
                                           const PlannerOptions &Opts,
                                           SpaceSize *Analysed,
                                           const PlanThreads *Threads) {
  return underQuota<std::vector<Variant>>(
      K.Domain.ctx().get(), Opts.IslMaxOperations,
      "planning kernel " + quote(K.Name),
      [&]() -> Expected<std::vector<Variant>> {
        std::string Error;
        std::vector<Variant> Vs = planKernel(K, Opts, Error, Analysed, Threads);
        if (Vs.empty())
          return Failure::user("cannot schedule kernel " + quote(K.Name) +
                               ": " + Error);
        return Vs;
      });
}

Expected<std::vector<Variant>> planVariants(const Kernel &K,
                                            const PlannerOptions &Opts,
                                            SpaceSize *Analysed) {
  return plan(K, Opts, Analysed, nullptr);
}

Expected<std::vector<Variant>> planVariants(const CheckedSource &C, size_t KI,
                                            const PlannerOptions &Opts,
                                            unsigned Jobs,
                                            SpaceSize *Analysed) {
  PlanThreads T;
  T.Count = Jobs;
  T.Rebuild = [&C, KI](isl::ctx Ctx) { return C.rebuildKernel(KI, Ctx); };
  return plan(C.kernels()[KI], Opts, Analysed, &T);
}

bool namesSchedule(const std::string &Name) {
  return !Name.empty() && !std::all_of(Name.begin(), Name.end(), [](char C) {
    return C >= '0' && C <= '9';
  });
}

Expected<Variant> chooseVariant(const Kernel &K,
                                const std::vector<Variant> &Planned,
                                const std::string &Name) {
  if (Name.empty()) {
    assert(!Planned.empty() && "planVariants lists at least one variant");
    return Planned.front();
  }
  std::string Error;
  std::optional<Variant> V = findVariant(K, Planned, Name, Error);
  if (!V)
    return Failure::user(Error);
  return std::move(*V);
}

//===----------------------------------------------------------------------===//
// Lower
//===----------------------------------------------------------------------===//

/// A variant of another view of \p K -- merged indices (MergeIndices.h) or
/// fused statements (Fusion.h) -- named by \p Tag: it maps the view's
/// statements. \p Slot, where there is a cache, keeps the view and the
/// view's own cache; \p Make builds the view; \p What and \p Where word
/// the refusal of a tag the kernel does not give.
template <typename Slot, typename MakeView>
static Expected<device::DeviceProgram>
lowerView(const Kernel &K, const Variant &V, const std::string &Tag,
          Slot *Kept, MakeView Make, const char *What, const char *Where) {
  decltype(Kept->View) Own;
  const decltype(Kept->View) *View = &Own;
  LoweringCache *ViewCache = nullptr;
  if (Kept) {
    if (!Kept->Cache) {
      Kept->View = Make(K);
      Kept->Cache = std::make_unique<LoweringCache>();
    }
    View = &Kept->View;
    ViewCache = Kept->Cache.get();
  } else {
    Own = Make(K);
  }
  if (!*View || (*View)->Tag != Tag)
    return Failure::user(std::string("the variant ") + What + " as '" + Tag +
                         "', which kernel " + quote(K.Name) +
                         " does not allow" + Where);
  Expected<device::DeviceProgram> P =
      lowerKernel((*View)->K, V.Schedules, ViewCache);
  if (P)
    P->Schedule = Tag + " " + P->Schedule;
  return P;
}

Expected<device::DeviceProgram> lowerVariant(const Kernel &K, const Variant &V,
                                             LoweringCache *Cache,
                                             unsigned long IslMaxOperations) {
  return underQuota<device::DeviceProgram>(
      K.Domain.ctx().get(), IslMaxOperations, "lowering the variant",
      [&]() -> Expected<device::DeviceProgram> {
        if (!V.Fuse.empty())
          return lowerView(K, V, V.Fuse, Cache ? &Cache->fused() : nullptr,
                           fuseStatements, "fuses statements", "");
        if (!V.Merge.empty())
          return lowerView(K, V, V.Merge, Cache ? &Cache->merged() : nullptr,
                           mergeIndices, "merges indices",
                           " at these sizes");
        return lowerKernel(K, V.Schedules, Cache);
      });
}

/// Work the lowering of \p Sch unrolls per thread: its register outputs
/// times its unrolled reduction tile, then the reads it stages.
static std::pair<long, size_t> unrolledWork(const Schedule &Sch) {
  long Tile = 1;
  if (const IndexMap *T = Sch.tiledReduction())
    Tile = T->Tile;
  return {Sch.registerOutputs() * Tile,
          Sch.Prefetch.size() + (Sch.Pipelined ? 1 : 0)};
}

/// The name of the variant of least unrolled work among \p Planned: for
/// each statement, of the schedules the plain variants give it, the one of
/// least unrolled work (the best ranked among equals); "" where no variant
/// is plain.
static std::string simplestVariant(const Kernel &K,
                                   const std::vector<Variant> &Planned) {
  std::vector<const Schedule *> Best(K.Stmts.size(), nullptr);
  for (const Variant &V : Planned) {
    if (!V.Merge.empty() || !V.Fuse.empty())
      continue;
    for (size_t S = 0; S < Best.size(); ++S)
      if (!Best[S] || unrolledWork(V.Schedules[S]) < unrolledWork(*Best[S]))
        Best[S] = &V.Schedules[S];
  }
  std::string Name;
  for (size_t S = 0; S < Best.size(); ++S) {
    if (!Best[S])
      return "";
    Name += (S ? " | " : "") + Best[S]->str(K, K.Stmts[S]);
  }
  return Name;
}

Expected<LoweredVariant> lowerBest(const Kernel &K,
                                   const std::vector<Variant> &Planned,
                                   unsigned long IslMaxOperations) {
  assert(!Planned.empty() && "planVariants lists at least one variant");
  auto Lowered = [&](size_t I, unsigned long Max) -> Expected<LoweredVariant> {
    auto P = lowerVariant(K, Planned[I], nullptr, Max);
    if (!P)
      return P.takeFailure();
    return LoweredVariant{Planned[I], std::move(*P), I};
  };
  if (!IslMaxOperations)
    return Lowered(0, 0);
  auto First = Lowered(0, std::max(IslMaxOperations / 2, 1UL));
  if (First || !First.failure().OutOfQuota)
    return First;
  std::string Name = simplestVariant(K, Planned);
  std::string Error;
  std::optional<Variant> Simplest =
      Name.empty() ? std::nullopt : findVariant(K, Planned, Name, Error);
  assert((Name.empty() || Simplest) && "the planner's schedules parse");
  if (Simplest && Simplest->Name != Planned.front().Name) {
    auto P = lowerVariant(K, *Simplest, nullptr, IslMaxOperations);
    if (!P && !P.failure().OutOfQuota)
      return P.takeFailure();
    if (P) {
      auto Same = [&](const Variant &X) { return X.Name == Simplest->Name; };
      size_t Rank = std::find_if(Planned.begin(), Planned.end(), Same) -
                    Planned.begin();
      return LoweredVariant{std::move(*Simplest), std::move(*P), Rank};
    }
  }
  // Where the simplest needs the whole quota too, the first-ranked
  // variant's failure says what ran out.
  return Lowered(0, IslMaxOperations);
}

Expected<LoweredVariant> lowerChosen(const Kernel &K,
                                     const std::vector<Variant> &Planned,
                                     const Variant &V, const std::string &Name,
                                     unsigned long IslMaxOperations) {
  if (Name.empty())
    return lowerBest(K, Planned, IslMaxOperations);
  auto P = lowerVariant(K, V, nullptr, IslMaxOperations);
  if (!P)
    return P.takeFailure();
  return LoweredVariant{V, std::move(*P), 0};
}

namespace {

/// Variants that map their outputs to blocks and threads alike share the
/// per-thread loop nests of Init and Write, and with equal reduction tiles
/// that of the body: the grid maps of every statement's schedule.
std::string tilingKey(const Variant &V) {
  std::string Key = V.Merge + V.Fuse + " ";
  for (const Schedule &Sch : V.Schedules) {
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid)
        Key += std::to_string(M.Index) + ":" + std::to_string(int(M.Ax)) +
               "/" + std::to_string(M.Threads) + "/" + std::to_string(M.Ilp) +
               M.runSuffix() + " ";
    Key += "| ";
  }
  return Key;
}

/// What one lowering thread keeps: its isl context, the kernel rebuilt in
/// it, and the isl objects cached for later lowerings (which go before the
/// context).
struct LoweringThread {
  IslContext Isl; // first in, last out
  Expected<Kernel> K;
  LoweringCache Cache;
  LoweringThread(const CheckedSource &C, size_t KI)
      : K(C.rebuildKernel(KI, Isl.get())) {}
};

} // namespace

std::vector<Expected<device::DeviceProgram>>
lowerVariants(const CheckedSource &C, size_t KI, const std::vector<Variant> &Vs,
              const std::vector<size_t> &Pick, unsigned Threads) {
  std::vector<Expected<device::DeviceProgram>> Out;
  Out.reserve(Pick.size());
  for (size_t I = 0; I < Pick.size(); ++I)
    Out.emplace_back(Failure::internal("the variant was not lowered"));
  if (Pick.empty())
    return Out;
  // Rebuilding the kernel costs about as much as lowering a few variants.
  Threads = workerCount(Threads, (Pick.size() + 3) / 4);
  // A thread's cache serves only its own lowerings: each takes whole groups
  // of variants of one tiling, so that their nests are generated once.
  std::map<std::string, std::vector<size_t>> ByTiling;
  for (size_t I = 0; I < Pick.size(); ++I)
    ByTiling[tilingKey(Vs[Pick[I]])].push_back(I);
  // Groups larger than a share of the work split, so that every thread
  // gets some.
  size_t Most = std::max<size_t>(1, Pick.size() / (4 * Threads));
  std::vector<std::vector<size_t>> Groups;
  for (auto &[Key, Members] : ByTiling)
    for (size_t F = 0; F < Members.size(); F += Most)
      Groups.emplace_back(Members.begin() + F,
                          Members.begin() + std::min(F + Most, Members.size()));
  parallelForEach(
      Groups.size(), Threads,
      [&] { return std::make_unique<LoweringThread>(C, KI); },
      [&](LoweringThread &T, size_t G) {
        for (size_t I : Groups[G])
          Out[I] = T.K ? lowerVariant(*T.K, Vs[Pick[I]], &T.Cache,
                                      C.options().IslMaxOperations)
                       : Expected<device::DeviceProgram>(T.K.failure());
      });
  return Out;
}

//===----------------------------------------------------------------------===//
// Compile
//===----------------------------------------------------------------------===//

Expected<std::string> compileVariant(const std::string &Cuda,
                                     const std::string &Name,
                                     const std::string &Arch, bool Cubin) {
  NvrtcResult R = compileCuda(Cuda, Name, Arch, Cubin);
  if (!R.Ok)
    return Failure::user(R.Log);
  return std::move(R.Output);
}

} // namespace loopy
