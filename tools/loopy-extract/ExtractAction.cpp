//===- ExtractAction.cpp - The Clang action behind loopy-extract ----------===//
#include "ExtractAction.h"
#include "Analysis.h"
#include "Lifter.h"
#include "LoopPrinter.h"
#include "Pragmas.h"
#include "Targets.h"

#include "loopy/Support/Isl.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"

#include <map>

namespace loopy::extract {

namespace {

class ExtractConsumer : public clang::ASTConsumer {
public:
  ExtractConsumer(const std::string &Only, ExtractResult &Result,
                  std::unique_ptr<std::vector<LoopyPragma>> Pragmas)
      : Only(Only), Result(Result), Pragmas(std::move(Pragmas)) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Reporter R(Ctx.getDiagnostics());
    // A file Clang rejects is not lifted.
    if (R.hasErrors())
      return;
    std::vector<KernelRequest> Requests = matchPragmas(*Pragmas, Ctx, R);
    IslContext Isl;
    std::map<std::string, clang::SourceLocation> Seen;
    clang::SourceManager &SM = Ctx.getSourceManager();
    for (const KernelRequest &Req : Requests) {
      std::string Name =
          Req.Name.empty() ? Req.Function->getNameAsString() : Req.Name;
      if (!Only.empty() && Name != Only)
        continue;
      if (Seen.count(Name)) {
        R.error(Req.PragmaLoc, msg::DuplicateKernelName) << Name;
        R.note(Seen[Name], msg::PreviousKernel) << Name;
        continue;
      }
      Seen[Name] = Req.PragmaLoc;
      try {
        LiftedKernel K = Lifter(Req, Ctx, R).lift();
        clang::PresumedLoc At = SM.getPresumedLoc(
            Req.NestLoc.isValid() ? Req.NestLoc : Req.PragmaLoc);
        K.Origin = "lifted by loopy-extract from " + std::string(At.getFilename()) +
                   ":" + std::to_string(At.getLine());
        inferAssumptions(K, Isl.get(), R);
        bool EmptyDomain = warnEmptyDomain(K, Isl.get(), R);
        inferShapes(K, Isl.get(), R);
        std::vector<clang::SourceRange> LineOrigins;
        std::string Text = printKernel(K, LineOrigins);
        checkWithLoopyc(Text, LineOrigins, R, EmptyDomain);
        Result.Text += (Result.Kernels++ ? "\n" : "") + Text;
      } catch (LiftFailed &) {
      }
    }
  }

private:
  std::string Only;
  ExtractResult &Result;
  std::unique_ptr<std::vector<LoopyPragma>> Pragmas;
};

} // namespace

std::unique_ptr<clang::ASTConsumer>
ExtractAction::CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) {
  auto Pragmas = std::make_unique<std::vector<LoopyPragma>>();
  // The preprocessor owns the handler; the consumer owns what it records.
  CI.getPreprocessor().AddPragmaHandler(new LoopyPragmaHandler(*Pragmas));
  return std::make_unique<ExtractConsumer>(Only, Result, std::move(Pragmas));
}

} // namespace loopy::extract
