//===- InterpTestSupport.cpp - Kernels from text for the interpreter tests ===//
//
// Builds a checked kernel from .loop text through the parser, Sema and the
// isl checks, as loopyc does, from text or from one of examples/, and host
// data for it. The kernel comes back
// in a shared_ptr that also owns the isl context and source it lives on.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "loopy/Analysis/Checks.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Interp/Fill.h"
#include "loopy/Interp/HostData.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Isl.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace loopy::interptest {

namespace {
struct Built {
  IslContext Isl;
  std::unique_ptr<SourceManager> SM;
  std::vector<Kernel> Kernels;
};
} // namespace

std::shared_ptr<const Kernel>
buildKernel(const std::string &Text,
            const std::map<std::string, long> &Defines) {
  auto B = std::make_shared<Built>();
  B->SM = std::make_unique<SourceManager>("t.loop", Text);
  std::ostringstream Err;
  DiagnosticEngine Diags(B->SM.get(), Err);
  ast::Module M = parseModule(*B->SM, Diags);
  SemaOptions O;
  O.Defines = Defines;
  B->Kernels = buildKernels(M, B->Isl.get(), *B->SM, Diags, O);
  for (const Kernel &K : B->Kernels)
    checkKernel(K, Diags);
  EXPECT_EQ(Diags.errorCount(), 0u) << Err.str();
  if (Diags.errorCount() || B->Kernels.size() != 1)
    return nullptr;
  return std::shared_ptr<const Kernel>(B, &B->Kernels[0]);
}

std::shared_ptr<const Kernel>
buildExample(const std::string &Name,
             const std::map<std::string, long> &Defines) {
  std::string Path = std::string(LOOPY_EXAMPLES_DIR) + "/" + Name + ".loop";
  std::ifstream In(Path);
  EXPECT_TRUE(In.good()) << "cannot read " << Path;
  std::ostringstream Text;
  Text << In.rdbuf();
  return buildKernel(Text.str(), Defines);
}

HostData randomData(const Kernel &K, const ParamValues &Params,
                    uint64_t Seed) {
  std::string Error;
  std::optional<HostData> D = makeHostData(K, Params, Error);
  EXPECT_TRUE(D.has_value()) << Error;
  if (!D)
    return HostData();
  fillRandom(K, *D, Seed);
  return std::move(*D);
}

} // namespace loopy::interptest
