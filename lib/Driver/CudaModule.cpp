//===- CudaModule.cpp - Kernels and typed launchers for nvcc builds -------===//
//
// --emit=cuda-module: one variant per kernel of the file (the winner a
// tuning database holds for the kernel at these sizes, or the planner's
// first-ranked one), printed under one prelude into NAME.cu, with a host
// function per kernel that launches its device kernels in order, and
// NAME.h declaring those functions for host code compiled by any C++
// compiler. The launch figures come from the lowered program: the grid
// from isl's expressions on the parameters, the block, the dynamic shared
// memory and the vector loads' alignment.
//
//===----------------------------------------------------------------------===//
#include "loopy/Driver/Emit.h"

#include "loopy/CodeGen/Printer.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"

#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace loopy {

namespace {

/// One kernel of the module: the variant chosen, why, and its code.
struct ModuleKernel {
  const Kernel *K = nullptr;
  device::DeviceProgram Program;
  /// "the planner's first-ranked variant", or where it was tuned.
  std::string Origin;
};

/// The C++ type of host code for \p T (no `idx` typedef there; CUDA's
/// own 16-bit float types, which the kernels take as their bits).
const char *hostTypeName(DType T) {
  switch (T) {
  case DType::I64:
    return "long long";
  case DType::F16:
    return "__half";
  case DType::BF16:
    return "__nv_bfloat16";
  default:
    return cTypeName(T);
  }
}

/// The launcher's argument \p P as the kernel takes it: f16 and bf16
/// values and pointers as their bits.
std::string kernelArgument(const device::KernelParam &P) {
  if (!isHalf(P.Type))
    return P.Name;
  if (P.K == device::KernelParam::Kind::Scalar)
    return std::string(P.Type == DType::F16 ? "__half_as_ushort("
                                            : "__bfloat16_as_ushort(") +
           P.Name + ")";
  return std::string("reinterpret_cast<") +
         (P.K == device::KernelParam::Kind::InArray ? "const " : "") +
         cTypeName(P.Type) + " *>(" + P.Name + ")";
}

/// The winner stored for \p Key's kernel, sizes and planner options on any
/// device (the newest where several devices tuned it), with the device's
/// name and its time; nullopt where there is none. The key's device fields
/// are ignored: a module is built where no GPU may be present; so is the
/// planner's limit of shared memory where \p AnySharedLimit (tuned with
/// the device's, which differs by GPU).
/// TuningDB looks up whole keys only, hence the query here; it reads the
/// schema of TuningDB.cpp (version 2).
Expected<std::optional<std::pair<std::string, std::string>>>
storedWinner(const std::string &Path, const TuningKey &Key,
             bool AnySharedLimit) {
  sqlite3 *Db = nullptr;
  auto Fail = [&](const std::string &Why) -> Failure {
    std::string Msg = "cannot read the tuning database " + quote(Path) +
                      ": " + Why;
    sqlite3_close(Db);
    return Failure::user(Msg);
  };
  if (!std::filesystem::is_regular_file(Path))
    return Fail("no such file; tune with 'loopyc --tune --db " + Path +
                "' on the GPU first");
  if (sqlite3_open_v2(Path.c_str(), &Db, SQLITE_OPEN_READONLY, nullptr) !=
      SQLITE_OK)
    return Fail(sqlite3_errmsg(Db));
  sqlite3_busy_timeout(Db, 10000);
  sqlite3_stmt *St = nullptr;
  const char *Sql =
      "SELECT schedule, device, median_seconds FROM tuning WHERE "
      "kernel_hash = ?1 AND fixed_params = ?2 AND planner_options GLOB ?3 "
      "ORDER BY created_at DESC, id DESC LIMIT 1";
  if (sqlite3_prepare_v2(Db, Sql, -1, &St, nullptr) != SQLITE_OK)
    return Fail(std::string(sqlite3_errmsg(Db)) +
                " (is it a tuning database of this loopyc?)");
  sqlite3_bind_text(St, 1, Key.KernelHash.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St, 2, Key.FixedParams.c_str(), -1, SQLITE_TRANSIENT);
  // The options' text holds none of GLOB's special characters; the
  // shared limit's value becomes a wildcard where any goes.
  std::string Options = Key.PlannerOptions;
  if (size_t At = Options.find("max_shared="); AnySharedLimit &&
                                               At != std::string::npos) {
    At += 11;
    Options.replace(At, Options.find(',', At) - At, "*");
  }
  sqlite3_bind_text(St, 3, Options.c_str(), -1, SQLITE_TRANSIENT);
  std::optional<std::pair<std::string, std::string>> Found;
  int Rc = sqlite3_step(St);
  if (Rc == SQLITE_ROW) {
    auto Text = [&](int Col) {
      const unsigned char *T = sqlite3_column_text(St, Col);
      return std::string(T ? reinterpret_cast<const char *>(T) : "");
    };
    char Ms[32];
    std::snprintf(Ms, sizeof Ms, "%.3g ms", sqlite3_column_double(St, 2) * 1e3);
    Found.emplace(Text(0), "tuned on " + Text(1) + ", " + Ms);
  } else if (Rc != SQLITE_DONE) {
    std::string Why = sqlite3_errmsg(Db);
    sqlite3_finalize(St);
    return Fail(Why);
  }
  sqlite3_finalize(St);
  sqlite3_close(Db);
  return Found;
}

/// The variant of kernel \p KI for the module: --variant, else the winner
/// in --db, else the first-ranked one.
Expected<ModuleKernel> chooseModuleKernel(CheckedSource &C, size_t KI,
                                          const CompileOptions &Opts,
                                          DiagnosticEngine &Diags) {
  const Kernel &K = C.kernels()[KI];
  ModuleKernel MK;
  MK.K = &K;
  std::string Name = Opts.Variant;
  MK.Origin = Name.empty() ? "the planner's first-ranked variant"
                           : "the variant --variant=" + Name;
  if (Name.empty() && !Opts.Db.empty()) {
    auto Parametric = C.parametricKernel(KI);
    if (!Parametric)
      return Parametric.takeFailure();
    TuningKey Key;
    Key.KernelHash = kernelHash(**Parametric);
    Key.FixedParams = fixedParamsText(K.Fixed);
    Key.PlannerOptions = plannerOptionsText(Opts.Planner);
    auto Stored = storedWinner(Opts.Db, Key, Opts.SharedFromDevice);
    if (!Stored)
      return Stored.takeFailure();
    if (*Stored) {
      Name = (*Stored)->first;
      MK.Origin = (*Stored)->second;
    } else {
      std::string Sizes = Key.FixedParams.empty() ? "" : " at " + Key.FixedParams;
      Diags.warning(K.Loc, "no tuning result for kernel " + quote(K.Name) +
                               Sizes + " in " + quote(Opts.Db) +
                               "; the module holds the planner's first-ranked "
                               "variant");
    }
  }
  std::vector<Variant> Vs;
  if (!namesSchedule(Name)) {
    auto Planned = planVariants(C, KI, Opts.Planner, Opts.Jobs);
    if (!Planned)
      return Planned.takeFailure();
    Vs = std::move(*Planned);
  }
  auto V = chooseVariant(K, Vs, Name);
  if (!V)
    return Failure::user("kernel " + quote(K.Name) + ": " +
                         V.failure().Message);
  auto L = lowerChosen(K, Vs, *V, Name, Opts.Planner.IslMaxOperations);
  if (!L)
    return Failure::user("cannot lower variant " + quote(V->Name) +
                         " of kernel " + quote(K.Name) + ": " +
                         L.failure().Message);
  if (L->Rank != 0)
    MK.Origin = "the planner's variant of least unrolled work (the "
                "first-ranked one needs more than half of "
                "--isl-max-operations)";
  MK.Program = std::move(L->Program);
  return MK;
}

/// The name the launcher gives the stream: `stream`, unless an argument
/// of the kernel is called that.
std::string streamName(const Kernel &K) {
  for (const Argument &A : K.Args)
    if (A.Name == "stream")
      return "loopy_stream";
  return "stream";
}

/// The launcher's parameters: the arguments of \p K that stay arguments
/// (index parameters without -D, scalars, arrays), then the stream.
std::string launcherParams(const Kernel &K, bool Defaults) {
  std::vector<std::string> Ps;
  for (const Argument &A : K.Args) {
    if (A.Kind == ArgKind::Index) {
      if (!K.Fixed.count(A.Name))
        Ps.push_back("long long " + A.Name);
    } else if (A.Kind == ArgKind::Scalar) {
      Ps.push_back(std::string(hostTypeName(A.Type)) + " " + A.Name);
    } else if (!A.Internal) {
      Ps.push_back(std::string(A.Mode == ArgMode::In ? "const " : "") +
                   hostTypeName(A.Type) + " *" + A.Name);
    }
  }
  Ps.push_back("cudaStream_t " + streamName(K) + (Defaults ? " = 0" : ""));
  std::string S;
  for (size_t I = 0; I < Ps.size(); ++I)
    S += (I ? ",\n    " : "\n    ") + Ps[I];
  return S;
}

/// The comment above a launcher's declaration.
void launcherComment(std::ostream &OS, const ModuleKernel &MK) {
  const Kernel &K = *MK.K;
  OS << "/// Kernel " << K.Name << ", " << MK.Origin << ":\n"
     << "///   " << MK.Program.Schedule << "\n";
  if (!K.Fixed.empty()) {
    OS << "/// Compiled for";
    for (const auto &[Name, V] : K.Fixed)
      OS << " " << Name << "=" << V;
    OS << ".\n";
  }
  for (const device::DeviceKernel &DK : MK.Program.Kernels)
    OS << "/// " << DK.Name << ": " << DK.launchLine() << "\n";
  OS << "/// Returns the first error of a launch (cudaErrorMisalignedAddress\n"
        "/// where an array read in vectors is not aligned for them,\n"
        "/// cudaErrorInvalidConfiguration where a grid is past the device's\n"
        "/// limits); the kernels run asynchronously on the stream.\n";
}

/// The definition of \p MK's launcher.
void printLauncher(std::ostream &OS, const ModuleKernel &MK) {
  const Kernel &K = *MK.K;
  OS << "cudaError_t " << K.Name << "(" << launcherParams(K, false)
     << ") {\n";
  OS << "  using loopy_module_host::floord;\n"
        "  using loopy_module_host::max;\n"
        "  using loopy_module_host::min;\n";
  for (const auto &[Name, V] : K.Fixed)
    OS << "  [[maybe_unused]] constexpr long long " << Name << " = " << V
       << ";\n";
  // The strictest alignment each array needs in any of the kernels.
  std::map<std::string, long> Aligned;
  for (const device::DeviceKernel &DK : MK.Program.Kernels)
    for (const auto &[Name, Bytes] : DK.Aligned)
      Aligned[Name] = std::max(Aligned[Name], Bytes);
  for (const auto &[Name, Bytes] : Aligned)
    OS << "  if (reinterpret_cast<std::uintptr_t>(" << Name << ") % " << Bytes
       << " != 0)\n"
       << "    return cudaErrorMisalignedAddress; // read as " << Bytes
       << "-byte vectors\n";
  OS << "  cudaError_t loopy_err = cudaSuccess;\n";
  std::string Stream = streamName(K);
  // The temporaries of split reductions, in the stream's order.
  for (const device::KernelParam &KP : MK.Program.Kernels.front().Params) {
    if (!KP.Temporary)
      continue;
    std::string Bytes = "sizeof(" + std::string(cTypeName(KP.Type)) + ")";
    // Where the domain is empty an extent may fall below 0: nothing then.
    for (const std::string &E : KP.Extents)
      Bytes += " * (" + E + " > 0 ? (size_t)(" + E + ") : 0)";
    OS << "  loopy_module_host::Temporary " << KP.Name << "_memory(" << Stream
       << ");\n"
       << "  if ((loopy_err = " << KP.Name << "_memory.allocate(" << Bytes
       << ")) != cudaSuccess)\n"
       << "    return loopy_err;\n"
       << "  " << cTypeName(KP.Type) << " *" << KP.Name << " = static_cast<"
       << cTypeName(KP.Type) << " *>(" << KP.Name << "_memory.pointer);\n";
  }
  for (const device::DeviceKernel &DK : MK.Program.Kernels) {
    OS << "  // " << DK.Name << ": " << DK.launchLine() << "\n";
    std::string Indent = "  ";
    bool Guarded = !DK.LaunchIf.empty() && DK.LaunchIf != "1";
    if (Guarded) {
      OS << "  if (" << DK.LaunchIf << ") {\n";
      Indent = "    ";
    }
    OS << Indent << "{\n";
    std::string In = Indent + "  ";
    OS << In << "const long long loopy_grid[3] = {" << DK.GridC[0] << ", "
       << DK.GridC[1] << ", " << DK.GridC[2] << "};\n"
       << In << "if (loopy_grid[0] > 2147483647 || loopy_grid[1] > 65535 || "
                "loopy_grid[2] > 65535)\n"
       << In << "  return cudaErrorInvalidConfiguration;\n"
       << In << "if (loopy_grid[0] > 0 && loopy_grid[1] > 0 && loopy_grid[2] > 0) {\n";
    std::string Body = In + "  ";
    if (DK.DynamicShared > 0)
      OS << Body << "loopy_err = cudaFuncSetAttribute(::" << DK.Name
         << ", cudaFuncAttributeMaxDynamicSharedMemorySize, "
         << DK.DynamicShared << ");\n"
         << Body << "if (loopy_err != cudaSuccess)\n"
         << Body << "  return loopy_err;\n";
    OS << Body << "::" << DK.Name
       << "<<<dim3(unsigned(loopy_grid[0]), unsigned(loopy_grid[1]), "
          "unsigned(loopy_grid[2])), "
          "dim3("
       << DK.BlockDim[0] << ", " << DK.BlockDim[1] << ", " << DK.BlockDim[2]
       << "), " << DK.DynamicShared << ", " << Stream << ">>>(";
    for (size_t I = 0; I < DK.Params.size(); ++I)
      OS << (I ? ", " : "") << kernelArgument(DK.Params[I]);
    OS << ");\n"
       << Body << "if ((loopy_err = cudaGetLastError()) != cudaSuccess)\n"
       << Body << "  return loopy_err;\n"
       << In << "}\n"
       << Indent << "}\n";
    if (Guarded)
      OS << "  }\n";
  }
  OS << "  return cudaSuccess;\n}\n";
}

/// NAME.h for the module.
std::string moduleHeader(const std::vector<ModuleKernel> &Ks,
                         const std::string &Input, const std::string &Guard) {
  std::ostringstream OS;
  OS << "// Generated by loopyc --emit=cuda-module from " << Input
     << "; do not edit.\n"
     << "// Typed launchers of its kernels, defined in the .cu file beside "
        "this one.\n"
     << "#ifndef " << Guard << "\n#define " << Guard << "\n\n"
     << "#include <cuda_runtime_api.h>\n";
  bool Half = false;
  for (const ModuleKernel &MK : Ks)
    for (const Argument &A : MK.K->Args)
      Half |= A.Kind != ArgKind::Index && isHalf(A.Type);
  if (Half)
    OS << "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n";
  OS << "\nnamespace loopy::kernels {\n";
  for (const ModuleKernel &MK : Ks) {
    OS << "\n";
    launcherComment(OS, MK);
    OS << "cudaError_t " << MK.K->Name << "(" << launcherParams(*MK.K, true)
       << ");\n";
  }
  OS << "\n} // namespace loopy::kernels\n\n#endif // " << Guard << "\n";
  return OS.str();
}

/// NAME.cu for the module, which includes \p HeaderName.
std::string moduleSource(const std::vector<ModuleKernel> &Ks,
                         const std::string &Input,
                         const std::string &HeaderName) {
  std::ostringstream OS;
  OS << "// Generated by loopyc --emit=cuda-module from " << Input
     << "; do not edit.\n"
     << "#include \"" << HeaderName << "\"\n\n#include <cstdint>\n\n";
  PreludeParts Parts = PreludeParts::none();
  for (const ModuleKernel &MK : Ks)
    Parts.add(MK.Program);
  // Sizes given with -D are constants in the kernels, which some kernels
  // (the zero-initialisation of a split reduction) do not use.
  OS << "#pragma nv_diag_suppress 177 // declared but never referenced\n"
     << printPrelude(Dialect::CUDA, Parts);
  for (const ModuleKernel &MK : Ks)
    OS << "\n" << printKernels(MK.Program, Dialect::CUDA);
  OS << "#pragma nv_diag_default 177\n\n"
     << "// The grids' arithmetic on the host, as isl prints it.\n"
     << "namespace loopy_module_host {\n"
     << "[[maybe_unused]] inline long long floord(long long a, long long b) "
        "{\n"
     << "  return (a >= 0 ? a : a - b + 1) / b;\n}\n"
     << "[[maybe_unused]] inline long long min(long long a, long long b) { "
        "return a < b ? a : b; }\n"
     << "[[maybe_unused]] inline long long max(long long a, long long b) { "
        "return a > b ? a : b; }\n"
     << "// A temporary of the kernels launched on a stream, freed in the\n"
        "// stream's order once they are done.\n"
     << "struct [[maybe_unused]] Temporary {\n"
        "  explicit Temporary(cudaStream_t s) : stream(s) {}\n"
        "  Temporary(const Temporary &) = delete;\n"
        "  Temporary &operator=(const Temporary &) = delete;\n"
        "  ~Temporary() { if (pointer) cudaFreeAsync(pointer, stream); }\n"
        "  cudaError_t allocate(size_t bytes) {\n"
        "    return bytes ? cudaMallocAsync(&pointer, bytes, stream) : cudaSuccess;\n"
        "  }\n"
        "  cudaStream_t stream;\n"
        "  void *pointer = nullptr;\n"
        "};\n"
     << "} // namespace loopy_module_host\n\nnamespace loopy::kernels {\n";
  for (const ModuleKernel &MK : Ks) {
    OS << "\n";
    printLauncher(OS, MK);
  }
  OS << "\n} // namespace loopy::kernels\n";
  return OS.str();
}

} // namespace

Expected<CudaModule> emitCudaModule(CheckedSource &C,
                                    const CompileOptions &Opts,
                                    const std::string &Stem,
                                    DiagnosticEngine &Diags) {
  std::vector<ModuleKernel> Ks;
  for (size_t KI = 0; KI < C.kernels().size(); ++KI) {
    const Kernel &K = C.kernels()[KI];
    if (K.Stmts.empty())
      continue;
    auto MK = chooseModuleKernel(C, KI, Opts, Diags);
    if (!MK) {
      Failure F = MK.takeFailure();
      if (!F.isInternal() && !F.Message.empty()) {
        Diags.error(K.Loc, F.Message);
        F.Message.clear();
      }
      return F;
    }
    Ks.push_back(std::move(*MK));
  }
  std::string Base = std::filesystem::path(Stem).filename().string();
  std::string Guard = "LOOPY_MODULE_";
  for (char Ch : Base)
    Guard += std::isalnum(static_cast<unsigned char>(Ch))
                 ? static_cast<char>(std::toupper(static_cast<unsigned char>(Ch)))
                 : '_';
  Guard += "_H";
  std::string Input = std::filesystem::path(C.source().name()).filename().string();
  CudaModule M;
  M.Header = moduleHeader(Ks, Input, Guard);
  M.Source = moduleSource(Ks, Input, Base + ".h");
  return M;
}

} // namespace loopy
