//===- cases.cpp - A case's arrays and work, from its kernels' IR ---------===//
#include "cases.h"

#include "loopy/Interp/Compare.h"
#include "loopy/Interp/Work.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bench {

LoadedFile loadKernels(const std::string &Path,
                       const std::map<std::string, long> &Defines,
                       const std::vector<std::string> &Names) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error("cannot read " + Path);
  std::stringstream Text;
  Text << In.rdbuf();
  auto SM = std::make_shared<loopy::SourceManager>(Path, Text.str());
  std::ostringstream Diag;
  loopy::DiagnosticEngine Diags(SM.get(), Diag);
  loopy::CheckOptions Opts;
  Opts.Defines = Defines;
  auto C = loopy::checkSource(SM, Opts, Diags);
  if (!C)
    throw std::runtime_error(Diag.str() + C.failure().Message);
  LoadedFile F;
  F.Source = std::move(*C);
  const std::vector<loopy::Kernel> &All = F.Source->kernels();
  if (Names.empty())
    for (const loopy::Kernel &K : All)
      F.Kernels.push_back(&K);
  for (const std::string &N : Names) {
    auto I = F.Source->findKernel(N);
    if (!I)
      throw std::runtime_error("no kernel '" + N + "' in " + Path);
    F.Kernels.push_back(&All[*I]);
  }
  return F;
}

std::vector<ArraySpec> arraysOf(const LoadedFile &F) {
  std::vector<ArraySpec> Arrays;
  for (const loopy::Kernel *K : F.Kernels)
    for (const loopy::Argument &A : K->Args) {
      if (!A.isArray())
        continue;
      std::vector<long> Extents, Strides;
      std::string Error;
      if (!loopy::evaluateLayout(A, K->Fixed, Extents, Strides, Error))
        throw std::runtime_error(K->Name + ": " + Error);
      ArraySpec S;
      S.Name = A.Name;
      S.Elements = loopy::elementCount(Extents, Strides);
      S.ElementBytes = loopy::dtypeSize(A.Type);
      S.Type = A.Type;
      S.Input = A.Mode != loopy::ArgMode::Out;
      S.Output = A.Mode != loopy::ArgMode::In;
      S.Shape.Extents = Extents;
      S.Shape.RowMajorF32 =
          A.Order == loopy::Layout::RowMajor && A.Type == loopy::DType::F32;
      S.Shape.RowMajorBf16 =
          A.Order == loopy::Layout::RowMajor && A.Type == loopy::DType::BF16;
      auto It = std::find_if(Arrays.begin(), Arrays.end(),
                             [&](const ArraySpec &P) { return P.Name == A.Name; });
      if (It == Arrays.end()) {
        Arrays.push_back(S);
        continue;
      }
      if (It->Elements != S.Elements || It->ElementBytes != S.ElementBytes ||
          It->Shape.Extents != S.Shape.Extents)
        throw std::runtime_error(
            "array '" + A.Name + "' of kernel '" + K->Name +
            "' differs in type or shape from the array of that name in an "
            "earlier kernel; kernels of one file share arrays by name");
      It->Output |= S.Output;
    }
  return Arrays;
}

void analyse(Case &C) {
  LoadedFile F = loadKernels(C.File, C.Params, C.Kernels);
  C.Kernels.clear();
  C.Arrays = arraysOf(F);
  C.Flops = C.Bytes = C.ToleranceTerms = 0;
  for (const loopy::Kernel *K : F.Kernels) {
    C.Kernels.push_back(K->Name);
    for (const loopy::Argument &A : K->Args)
      if (A.Kind == loopy::ArgKind::Scalar && !C.Scalars.count(A.Name))
        throw std::runtime_error("scalar '" + A.Name + "' of kernel '" +
                                 K->Name + "' has no value");
    loopy::KernelWork W = loopy::countWork(*K, {});
    C.Flops += W.Flops;
    C.Bytes += W.bytes();
    double Longest = 1;
    for (const loopy::Statement &S : K->Stmts)
      Longest = std::max(Longest, loopy::reductionLength(S, K->Fixed));
    C.ToleranceTerms += 1 + std::sqrt(Longest);
  }
}

} // namespace bench
