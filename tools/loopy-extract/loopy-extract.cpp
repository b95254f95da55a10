//===- loopy-extract.cpp - Lift marked C/C++ loop nests to .loop ----------===//
//
// Parses options and runs ExtractAction on the input through Clang's
// tooling; prints the .loop text, or Clang-style diagnostics and exit
// status 1.
//
//===----------------------------------------------------------------------===//
#include "ExtractAction.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory Category("loopy-extract options");
static cl::opt<std::string> Input(cl::Positional, cl::desc("FILE"),
                                  cl::Required, cl::cat(Category));
static cl::opt<std::string> Output("o", cl::desc("Write the .loop text to FILE"),
                                   cl::value_desc("FILE"), cl::cat(Category));
static cl::opt<std::string> Kernel("kernel",
                                   cl::desc("Lift only the kernel named NAME"),
                                   cl::value_desc("NAME"), cl::cat(Category));

int main(int argc, const char **argv) {
  // Compiler flags for the input follow `--`; without them, a
  // compile_commands.json above the input is used if there is one.
  std::string Error;
  int Argc = argc;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, argv,
                                                                    Error);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "loopy-extract " << LOOPY_VERSION << "\n";
  });
  cl::ParseCommandLineOptions(
      Argc, argv,
      "loopy-extract: lifts the loop nests marked '#pragma loopy kernel' in a "
      "C or C++ file to .loop kernels\n\n"
      "  loopy-extract FILE [-o OUT] [--kernel=NAME] [-- COMPILER FLAGS]\n");
  if (!DB)
    DB = clang::tooling::CompilationDatabase::autoDetectFromSource(Input, Error);
  if (!DB)
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>());

  std::vector<clang::tooling::CompileCommand> Commands =
      DB->getCompileCommands(Input);
  std::vector<std::string> Args =
      Commands.empty() ? std::vector<std::string>{"clang-tool", Input}
                       : Commands.front().CommandLine;
  Args = clang::tooling::getClangStripOutputAdjuster()(Args, Input);
  Args = clang::tooling::getClangSyntaxOnlyAdjuster()(Args, Input);
  Args.insert(Args.begin() + 1, "-resource-dir=" LOOPY_CLANG_RESOURCE_DIR);

  loopy::extract::ExtractResult Result;
  IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions()));
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<loopy::extract::ExtractAction>(Kernel, Result),
      Files.get());
  if (!Invocation.run())
    return 1;
  if (Result.Kernels == 0) {
    errs() << "loopy-extract: error: "
           << (Kernel.empty() ? "no '#pragma loopy kernel' in '" + Input + "'"
                              : "no kernel named '" + Kernel + "' in '" +
                                    Input + "'")
           << "\n";
    return 1;
  }
  if (Output.empty() || Output == "-") {
    outs() << Result.Text;
    return 0;
  }
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "loopy-extract: error: cannot write '" << Output
           << "': " << EC.message() << "\n";
    return 1;
  }
  OS << Result.Text;
  return 0;
}
