//===- Driver.cpp - The loopyc compilation pipeline -----------------------===//
#include "loopy/Driver/Driver.h"
#include "loopy/Driver/Emit.h"

#include "loopy/Compile/Compile.h"
#include "loopy/IR/IRPrinter.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace loopy {

std::optional<EmitKind> parseEmitKind(const std::string &S) {
  if (S == "ir")
    return EmitKind::IR;
  if (S == "cuda")
    return EmitKind::CUDA;
  if (S == "opencl")
    return EmitKind::OpenCL;
  if (S == "ptx")
    return EmitKind::PTX;
  if (S == "variants")
    return EmitKind::Variants;
  if (S == "json")
    return EmitKind::JSON;
  if (S == "cuda-module")
    return EmitKind::CudaModule;
  return std::nullopt;
}

Expected<std::string> readSource(const std::string &Path) {
  std::ostringstream SS;
  if (Path == "-") {
    SS << std::cin.rdbuf();
    return SS.str();
  }
  // An ifstream opens a directory without complaint and reads nothing.
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC))
    return Failure::user("cannot read " + quote(Path) + ": it is a directory");
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Failure::user("cannot open " + quote(Path) + ": " +
                         std::strerror(errno));
  SS << In.rdbuf();
  if (In.bad())
    return Failure::user("cannot read " + quote(Path) + ": " +
                         std::strerror(errno));
  return SS.str();
}

/// Writes \p Text to \p Path. A regular file (or a new one) is written
/// through a temporary file renamed into place, so an interrupted run
/// never leaves a truncated output behind; a symbolic link is written
/// through to its target, which stays the link's. Anything else -- a
/// device such as /dev/null, a pipe -- is written in place: renaming a
/// file over it would replace it.
static Status writeOutput(const std::string &Path, const std::string &Text) {
  auto Fail = [&](const std::string &Name) {
    return Failure::user("cannot write " + quote(Name) + ": " +
                         std::strerror(errno));
  };
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::path Target = Path;
  if (fs::is_symlink(fs::symlink_status(Target, EC))) {
    fs::path Resolved = fs::canonical(Target, EC);
    if (!EC)
      Target = Resolved;
  }
  fs::file_status St = fs::status(Target, EC);
  if (fs::is_directory(St)) {
    errno = EISDIR;
    return Fail(Path);
  }
  if (fs::exists(St) && !fs::is_regular_file(St)) {
    std::ofstream OS(Target, std::ios::binary | std::ios::trunc);
    if (!OS || !(OS << Text) || !OS.flush())
      return Fail(Path);
    return success();
  }
  // A temporary name of its own beside the output: mkstemp never reuses
  // a file that exists.
  std::string Tmp = Target.string() + ".XXXXXX";
  int Fd = ::mkstemp(Tmp.data());
  if (Fd < 0)
    return Fail(Path);
  ::close(Fd);
  {
    std::ofstream OS(Tmp, std::ios::binary | std::ios::trunc);
    if (!OS || !(OS << Text) || !OS.flush()) {
      Failure F = Fail(Path);
      std::remove(Tmp.c_str());
      return F;
    }
  }
  // mkstemp makes the file readable by its owner alone; an output is
  // created like any other file, under the umask.
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::chmod(Tmp.c_str(), 0666 & ~Mask);
  if (fs::exists(St))
    ::chmod(Tmp.c_str(), static_cast<mode_t>(St.permissions()));
  if (std::rename(Tmp.c_str(), Target.c_str()) != 0) {
    Failure F = Fail(Path);
    std::remove(Tmp.c_str());
    return F;
  }
  return success();
}

/// --emit=cuda-module: NAME.h and NAME.cu for -o NAME (or NAME.cu or
/// NAME.h).
static Status writeCudaModule(CheckedSource &C, const CompileOptions &Opts,
                              DiagnosticEngine &Diags) {
  std::string Stem = Opts.Output;
  if (Stem.empty() || Stem == "-") {
    Diags.error("--emit=cuda-module writes two files; name them with "
                "-o NAME (NAME.cu and NAME.h)");
    return Failure::user("");
  }
  for (const char *Ext : {".cu", ".h"})
    if (Stem.size() > std::strlen(Ext) &&
        Stem.compare(Stem.size() - std::strlen(Ext), std::string::npos,
                     Ext) == 0)
      Stem.resize(Stem.size() - std::strlen(Ext));
  auto M = emitCudaModule(C, Opts, Stem, Diags);
  if (!M)
    return M.takeFailure();
  for (auto [Path, Text] : {std::pair{Stem + ".h", &M->Header},
                            std::pair{Stem + ".cu", &M->Source}}) {
    Status W = writeOutput(Path, *Text);
    if (!W) {
      Diags.error(W.failure().Message);
      return Failure::user("");
    }
  }
  return success();
}

/// Everything after the checks: the output of \p Opts for \p C, appended
/// to \p Result.
static Status produce(CheckedSource &C, const CompileOptions &Opts,
                      std::ostream &Result, std::ostream &Err,
                      DiagnosticEngine &Diags) {
  if (Opts.Tune)
    return tuneKernels(C, Opts, Result, Err, Diags);
  if (Opts.Emit == EmitKind::CudaModule)
    return writeCudaModule(C, Opts, Diags);
  if (Opts.Emit == EmitKind::Best && !Opts.CheckNvrtc && !Opts.CheckOpenCL) {
    // A variant the user chose is printed as it is, untuned.
    if (Opts.Variant.empty() && !Opts.AllVariants)
      return emitBest(C, Opts, Result, Err, Diags);
    CompileOptions Chosen = Opts;
    Chosen.Emit = EmitKind::CUDA;
    return emitDeviceCode(C, Chosen, Result, Diags);
  }
  if (Opts.Emit != EmitKind::IR || Opts.CheckNvrtc || Opts.CheckOpenCL)
    return emitDeviceCode(C, Opts, Result, Diags);
  if (!Opts.Variant.empty()) {
    Diags.error("--variant selects generated code; use it with "
                "--emit=cuda, --emit=ptx or --emit=json");
    return Failure::user("");
  }
  for (const Kernel &K : C.kernels())
    printKernel(Result, K);
  return success();
}

Status runCompiler(const CompileOptions &Opts, std::ostream &Out,
                   std::ostream &Err) {
  Expected<std::string> Text =
      Opts.InputText ? Expected<std::string>(*Opts.InputText)
                     : readSource(Opts.Input);
  if (!Text) {
    DiagnosticEngine(nullptr, Err).error(Text.failure().Message);
    return Failure::user("");
  }
  std::string Name = !Opts.InputName.empty() ? Opts.InputName
                     : Opts.Input == "-"     ? "<stdin>"
                                             : Opts.Input;
  auto SM = std::make_shared<SourceManager>(Name, std::move(*Text));
  DiagnosticEngine Diags(SM.get(), Err);
  CheckOptions CO;
  CO.Defines = Opts.Defines;
  CO.IslMaxOperations = Opts.IslMaxOperations;
  auto Checked = checkSource(SM, CO, Diags);
  if (!Checked)
    return Checked.takeFailure();

  std::ostringstream Result;
  Status S = success();
  try {
    // The same bound for planning each kernel and lowering each variant.
    CompileOptions Bounded = Opts;
    Bounded.Planner.IslMaxOperations = Opts.IslMaxOperations;
    S = produce(**Checked, Bounded, Result, Err, Diags);
  } catch (TooManyErrors &) {
    S = Failure::user("");
  } catch (isl::exception &E) {
    S = Failure::internal(islFailureText((*Checked)->ctx().get(), E));
  }
  if (!S) {
    Out << Result.str(); // what was produced, such as a --check report
    return S;
  }
  if (Opts.Emit == EmitKind::CudaModule) // written already
    return success();
  if (Opts.Output.empty() || Opts.Output == "-") {
    Out << Result.str();
    return success();
  }
  Status W = writeOutput(Opts.Output, Result.str());
  if (!W) {
    Diags.error(W.failure().Message);
    return Failure::user("");
  }
  return success();
}

} // namespace loopy
