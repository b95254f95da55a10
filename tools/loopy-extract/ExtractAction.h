//===- ExtractAction.h - The Clang action behind loopy-extract --*- C++ -*-===//
//
// Parses one C or C++ file with `#pragma loopy` registered, then matches
// the pragmas to their targets and runs the pipeline on each marked
// function or loop nest:
//
//   lift (Lifter) -> inferAssumptions -> warnEmptyDomain -> inferShapes
//     -> printKernel -> checkWithLoopyc
//
// collecting the .loop text of every kernel that lifts.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_EXTRACT_EXTRACTACTION_H
#define LOOPY_EXTRACT_EXTRACTACTION_H

#include "clang/Frontend/FrontendAction.h"

#include <string>

namespace loopy::extract {

struct ExtractResult {
  /// The .loop text of the kernels, in source order.
  std::string Text;
  unsigned Kernels = 0;
};

class ExtractAction : public clang::ASTFrontendAction {
public:
  /// Lifts only the kernel named \p Only when it is not empty.
  ExtractAction(std::string Only, ExtractResult &Result)
      : Only(std::move(Only)), Result(Result) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef File) override;

private:
  std::string Only;
  ExtractResult &Result;
};

} // namespace loopy::extract

#endif
