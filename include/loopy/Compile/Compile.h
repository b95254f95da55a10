//===- Compile.h - The one way into the compiler ----------------*- C++ -*-===//
//
// Every user of the compiler -- loopyc's driver, the embedding API, the
// tuner and the threads that lower variants in parallel -- goes through
// these steps, in this order:
//
//   source text --checkSource--> CheckedSource (checked Kernel IR)
//     --planVariants / chooseVariant--> Variant(s)
//     --lowerVariant / lowerVariants--> device::DeviceProgram(s)
//       (lowerVariants on several threads, each with the kernel rebuilt in
//        its own isl context from the parse tree: rebuildKernel)
//     --printProgram (CodeGen), compileVariant--> CUDA / OpenCL text, CUBIN or PTX
//
// Each step returns Expected<T>. User errors with a place in the source are
// reported through the DiagnosticEngine where they are found, and the
// Failure only says that they were (an empty message); other failures carry
// their reason, which the caller puts in context.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_COMPILE_COMPILE_H
#define LOOPY_COMPILE_COMPILE_H

#include "loopy/CodeGen/DeviceAST.h"
#include "loopy/CodeGen/Lower.h"
#include "loopy/Frontend/AST.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Expected.h"
#include "loopy/Support/Isl.h"
#include "loopy/Support/SourceManager.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace loopy {

/// What the front half takes besides the text.
struct CheckOptions {
  /// Index parameters fixed to values (loopyc's -D): constants in the code.
  std::map<std::string, long> Defines;
  /// Bound on isl's work while building and checking (0: unlimited).
  unsigned long IslMaxOperations = 0;
};

/// A source text parsed, built into Kernel IR and checked. It owns the isl
/// context of its kernels, which one thread at a time may use.
class CheckedSource {
public:
  CheckedSource(const CheckedSource &) = delete;
  CheckedSource &operator=(const CheckedSource &) = delete;
  ~CheckedSource();

  const SourceManager &source() const { return *SM; }
  isl::ctx ctx() const { return Isl.get(); }
  const CheckOptions &options() const { return Opts; }
  /// One per kernel of the text, in order, built with options().Defines.
  const std::vector<Kernel> &kernels() const { return Kernels; }
  /// The position of the kernel \p Name in kernels(), if there is one.
  std::optional<size_t> findKernel(const std::string &Name) const;

  /// Kernel number \p KI built without the Defines, as the tuning database
  /// knows it (Sema folds fixed values into every isl set, and the
  /// parametric sets cannot be recovered from the folded ones): the same
  /// object as kernels()[KI] where nothing is fixed. Built on first use.
  Expected<const Kernel *> parametricKernel(size_t KI);

  /// Kernel number \p KI built again, in the isl context \p Ctx of another
  /// thread, from the parse tree (which is only read: any number of threads
  /// may do this at once): Sema makes the same sets in the same form as
  /// the first time, so lowering the rebuilt kernel prints the same code.
  /// Nothing is parsed or checked again. An internal Failure if the
  /// rebuild reports errors, which the first build did not.
  Expected<Kernel> rebuildKernel(size_t KI, isl::ctx Ctx) const;

private:
  friend Expected<std::unique_ptr<CheckedSource>>
  checkSource(std::shared_ptr<const SourceManager> SM, const CheckOptions &Opts,
              DiagnosticEngine &Diags);
  CheckedSource(std::shared_ptr<const SourceManager> SM, CheckOptions Opts);

  IslContext Isl; // first in, last out: the kernels' sets belong to it
  std::shared_ptr<const SourceManager> SM;
  CheckOptions Opts;
  ast::Module Module;
  std::vector<Kernel> Kernels;
  std::vector<Kernel> Parametric; // empty until asked for, or if no Defines
};

/// Parses \p SM's text, builds its kernels (with \p Opts.Defines fixed) and
/// checks them: race-free writes, accesses in bounds, data flow. Errors are
/// reported on \p Diags, which must report against \p SM; then the result
/// is a user Failure with an empty message. isl running past
/// Opts.IslMaxOperations is a user error too, reported on \p Diags; another
/// isl failure is an internal Failure.
Expected<std::unique_ptr<CheckedSource>>
checkSource(std::shared_ptr<const SourceManager> SM, const CheckOptions &Opts,
            DiagnosticEngine &Diags);

/// The planner's variants of \p K, best first; a user Failure ("cannot
/// schedule kernel 'K': why") where no statement can be scheduled, or
/// where isl runs past Opts.IslMaxOperations (counted afresh for each
/// statement's space) before one schedule of a statement is analysed,
/// naming --isl-max-operations. \p Analysed, where given, says how much of
/// the space was analysed within --plan-limit. The analyses run in turn in
/// \p K's isl context.
Expected<std::vector<Variant>> planVariants(const Kernel &K,
                                            const PlannerOptions &Opts,
                                            SpaceSize *Analysed = nullptr);

/// planVariants of kernel \p KI of \p C, isl's analyses on \p Jobs threads
/// (0: one per core), each partition of them in a copy of the kernel
/// rebuilt in an isl context of its own (PlanThreads); the variants do not
/// depend on \p Jobs.
Expected<std::vector<Variant>> planVariants(const CheckedSource &C, size_t KI,
                                            const PlannerOptions &Opts,
                                            unsigned Jobs,
                                            SpaceSize *Analysed = nullptr);

/// True if \p Name, a --variant value, is a schedule string, which needs
/// no enumeration; false for a rank in the planner's list or "" (the best
/// ranked), which choose from planVariants' result.
bool namesSchedule(const std::string &Name);

/// The variant \p Name of \p K: a schedule string (parsed; \p Planned may
/// be empty), a rank in \p Planned, or the first of \p Planned if empty. A
/// user Failure says why \p Name names no variant.
Expected<Variant> chooseVariant(const Kernel &K,
                                const std::vector<Variant> &Planned,
                                const std::string &Name);

/// Lowers \p V of \p K to device code. A Failure gives the reason alone;
/// callers name the variant. \p Cache, where given, holds isl objects of
/// \p K's context from earlier lowerings. isl's work is bounded by
/// \p IslMaxOperations (0: unlimited); past it, a user Failure names
/// --isl-max-operations.
Expected<device::DeviceProgram> lowerVariant(const Kernel &K, const Variant &V,
                                             LoweringCache *Cache = nullptr,
                                             unsigned long IslMaxOperations = 0);

/// A variant and its device code.
struct LoweredVariant {
  Variant V;
  device::DeviceProgram Program;
  /// Its rank in the planned list; the list's length for a variant that
  /// combines the statements' schedules anew.
  size_t Rank = 0;
};

/// The variant an --emit without --variant lowers: the first of \p Planned,
/// its lowering bounded by half of \p IslMaxOperations. Where that runs
/// out (isl's loop nests for a domain with holes under many unrolled
/// registers can take seconds), the variant of least unrolled work under
/// the whole quota: each statement's schedule, of those the plain variants
/// give it, of fewest register outputs times unrolled reduction tile, then
/// fewest staged reads, then the best ranked. If that too runs out, the
/// first-ranked variant under the whole quota. Every step counts isl's
/// operations, so the choice is the same on every run.
Expected<LoweredVariant> lowerBest(const Kernel &K,
                                   const std::vector<Variant> &Planned,
                                   unsigned long IslMaxOperations);

/// \p V, the variant chooseVariant gave for --variant=\p Name, lowered: as
/// named (under the whole quota) where \p Name is not empty, else through
/// lowerBest, which may lower another of \p Planned.
Expected<LoweredVariant> lowerChosen(const Kernel &K,
                                     const std::vector<Variant> &Planned,
                                     const Variant &V, const std::string &Name,
                                     unsigned long IslMaxOperations);

/// Lowers the variants \p Vs[Pick[I]] of kernel number \p KI of \p C on up
/// to \p Threads threads (0: one per core); result I belongs to Pick[I].
/// Each thread lowers its own copy of the kernel, in an isl context of its
/// own (rebuildKernel), and takes whole groups of variants that map their
/// outputs alike, so that their loop nests are generated once. Each
/// lowering is bounded by C.options().IslMaxOperations.
std::vector<Expected<device::DeviceProgram>>
lowerVariants(const CheckedSource &C, size_t KI, const std::vector<Variant> &Vs,
              const std::vector<size_t> &Pick, unsigned Threads = 0);

/// \p Cuda compiled by NVRTC for \p Arch: CUBIN with \p Cubin, else PTX.
/// \p Name names the program in NVRTC's log. A Failure holds NVRTC's log.
Expected<std::string> compileVariant(const std::string &Cuda,
                                     const std::string &Name,
                                     const std::string &Arch, bool Cubin);

} // namespace loopy

#endif
