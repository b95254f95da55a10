//===- Addressing.cpp - Global array elements as C subscripts -------------===//
#include "Addressing.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/aff.h>
#include <isl/ast_build.h>

namespace loopy {

Addressing buildAddressing(const StatementMapping &M) {
  const Kernel &K = *M.K;
  Addressing Out;
  Out.K = &K;
  isl::ast_build Build = isl::ast_build::from_context(M.Context);
  for (const Argument &A : K.Args) {
    std::vector<std::string> Ext, Str;
    auto Text = [&](const isl::aff &X) {
      // Shapes and strides are functions of the parameters alone.
      isl_aff *Al = isl_aff_project_domain_on_params(X.copy());
      isl::pw_aff P = M.fixSizes(isl::manage(isl_pw_aff_from_aff(Al)));
      return exprText(Build, isl::manage(isl_pw_aff_align_params(P.release(),
                                                             M.Params.copy())));
    };
    for (const isl::aff &X : A.Shape)
      Ext.push_back(Text(X));
    auto Paren = [](const std::string &T) {
      return T.find_first_of(" +-*/%?") == std::string::npos ? T
                                                             : "(" + T + ")";
    };
    unsigned N = A.rank();
    for (unsigned D = 0; D < N; ++D) {
      std::string P;
      if (A.Order == Layout::Strided) {
        P = Paren(Text(A.Strides[D]));
      } else {
        bool Row = A.Order == Layout::RowMajor;
        for (unsigned E = Row ? D + 1 : 0; E < (Row ? N : D); ++E)
          P += (P.empty() ? "" : " * ") + Paren(Ext[E]);
      }
      Str.push_back(P.empty() ? "1" : P);
    }
    Out.Strides.push_back(Str);
  }
  return Out;
}

std::string Addressing::element(unsigned Arg,
                                const std::vector<std::string> &Sub) const {
  const Argument &A = K->Args[Arg];
  if (Sub.empty())
    return A.Name + "[0]";
  std::string L;
  for (size_t D = 0; D < Sub.size(); ++D) {
    std::string T = Sub[D];
    const std::string &St = Strides[Arg][D];
    if (St != "1") {
      if (T.find_first_of(" +-?") != std::string::npos)
        T = "(" + T + ")";
      T += " * " + St;
    }
    L += (L.empty() ? "" : " + ") + T;
  }
  return A.Name + "[" + L + "]";
}

} // namespace loopy
