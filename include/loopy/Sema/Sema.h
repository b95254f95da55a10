//===- Sema.h - From syntax tree to checked Kernel IR -----------*- C++ -*-===//
//
// buildKernels resolves names, checks types, parses the isl domain and
// assumptions, classifies every statement's indices into output and
// reduction indices and builds its access relations. It takes the parsed
// ast::Module and produces one Kernel per kernel whose arguments and domain
// are valid. The
// whole-kernel checks that need isl's reasoning (races, bounds, data flow)
// live in Analysis and run afterwards.
//
// A statement with an error is reported and left out of its kernel, so the
// remaining statements can still be checked; the caller decides from the
// DiagnosticEngine's error count whether the run succeeded.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_SEMA_SEMA_H
#define LOOPY_SEMA_SEMA_H

#include "loopy/Frontend/AST.h"
#include "loopy/IR/Kernel.h"
#include "loopy/Support/Diagnostics.h"

#include <map>
#include <string>
#include <vector>

namespace loopy {

struct SemaOptions {
  /// Parameter values fixed with -D name=value.
  std::map<std::string, long> Defines;
};

std::vector<Kernel> buildKernels(const ast::Module &M, isl::ctx Ctx,
                                 const SourceManager &SM,
                                 DiagnosticEngine &Diags,
                                 const SemaOptions &Opts);

} // namespace loopy

#endif
