//===- Driver.cpp - The loopyc compilation pipeline -----------------------===//
#include "loopy/Driver/Driver.h"
#include "loopy/Driver/Emit.h"

#include "loopy/Analysis/Checks.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/IR/IRPrinter.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Isl.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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
  return std::nullopt;
}

std::optional<std::string> readSource(const std::string &Path,
                                      std::string &Error) {
  std::ostringstream SS;
  if (Path == "-") {
    SS << std::cin.rdbuf();
    return SS.str();
  }
  // An ifstream opens a directory without complaint and reads nothing.
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC)) {
    Error = "cannot read " + quote(Path) + ": it is a directory";
    return std::nullopt;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = "cannot open " + quote(Path) + ": " + std::strerror(errno);
    return std::nullopt;
  }
  SS << In.rdbuf();
  if (In.bad()) {
    Error = "cannot read " + quote(Path) + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return SS.str();
}

/// Writes \p Text to \p Path through a temporary file renamed into place,
/// so an interrupted run never leaves a truncated output behind.
static bool writeOutput(const std::string &Path, const std::string &Text,
                        std::string &Error) {
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream OS(Tmp, std::ios::binary | std::ios::trunc);
    if (!OS) {
      Error = "cannot write " + quote(Path) + ": " + std::strerror(errno);
      return false;
    }
    OS << Text;
    if (!OS.flush()) {
      Error = "cannot write " + quote(Path) + ": " + std::strerror(errno);
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error = "cannot write " + quote(Path) + ": " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

int runCompiler(const CompileOptions &Opts, std::ostream &Out,
                std::ostream &Err) {
  std::string ReadError;
  auto Text = readSource(Opts.Input, ReadError);
  if (!Text) {
    DiagnosticEngine(nullptr, Err).error(ReadError);
    return 1;
  }
  SourceManager SM(Opts.Input == "-" ? "<stdin>" : Opts.Input,
                   std::move(*Text));
  DiagnosticEngine Diags(&SM, Err);
  IslContext Isl;
  std::ostringstream Result;
  try {
    ast::Module M = parseModule(SM, Diags);

    SemaOptions SO;
    SO.Defines = Opts.Defines;
    std::vector<Kernel> Kernels;
    {
      // The quota bounds the checks only: printing what passed them is
      // cheap, and must not fail half-way.
      IslMaxOperationsGuard Quota(Isl.raw(), Opts.IslMaxOperations);
      try {
        Kernels = buildKernels(M, Isl.get(), SM, Diags, SO);
        for (const Kernel &K : Kernels)
          checkKernel(K, Diags);
      } catch (isl::exception &E) {
        // Past the quota, isl fails in the call that hit it (an
        // exception_quota from the C++ bindings) or, after a C call, in a
        // later call that got its null result.
        if (!dynamic_cast<isl::exception_quota *>(&E) &&
            !Quota.hasQuotaExceeded())
          throw;
        Diags.error("isl exceeded its limit of " +
                    std::to_string(Opts.IslMaxOperations) +
                    " operations while checking " + quote(SM.name()) +
                    "; simplify the domain or raise --isl-max-operations");
        return 1;
      }
    }
    if (Diags.hasErrors())
      return 1;

    if (Opts.Tune) {
      KernelSource Src{SM.name(), SM.text(), SO};
      std::ostringstream Tuned;
      int Status = tuneKernels(M, Kernels, Src, SM, Opts, Isl.get(), Tuned,
                               Err, Diags);
      if (Status != 0) {
        Out << Tuned.str();
        return Status;
      }
      Result << Tuned.str();
    } else if (Opts.Emit != EmitKind::IR || (Opts.CheckNvrtc || Opts.CheckOpenCL)) {
      std::string Code;
      KernelSource Src{SM.name(), SM.text(), SO};
      int Status = emitDeviceCode(Kernels, Src, Opts, Code, Diags);
      if (Status != 0) {
        Out << Code; // what was produced, such as a --check report
        return Status;
      }
      Result << Code;
    } else if (!Opts.Variant.empty()) {
      Diags.error("--variant selects generated code; use it with "
                  "--emit=cuda, --emit=ptx or --emit=json");
      return 1;
    }
    if (Opts.Emit == EmitKind::IR &&
        !(Opts.CheckNvrtc || Opts.CheckOpenCL || Opts.Tune))
      for (const Kernel &K : Kernels)
        printKernel(Result, K);
  } catch (TooManyErrors &) {
    return 1;
  } catch (isl::exception &E) {
    Err << "loopyc: internal error: isl: " << E.what() << "\n";
    return 2;
  }

  if (Opts.Output.empty() || Opts.Output == "-") {
    Out << Result.str();
    return 0;
  }
  std::string WriteError;
  if (!writeOutput(Opts.Output, Result.str(), WriteError)) {
    Diags.error(WriteError);
    return 1;
  }
  return 0;
}

} // namespace loopy
