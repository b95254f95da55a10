//===- Written.cpp - The elements a kernel writes, and how many terms -----===//
#include "loopy/Interp/Compare.h"

#include "Instantiate.h"
#include "LoopNest.h"

#include <algorithm>

namespace loopy {

using namespace interp;

WrittenMask writtenMask(const Kernel &K, const HostData &D) {
  WrittenMask Mask;
  for (const Argument &A : K.Args)
    if (A.isArray() && A.Mode != ArgMode::In)
      Mask[A.Name].assign(D.array(A.Name).size(), false);
  for (const Statement &S : K.Stmts) {
    const std::string &Name = K.Args[S.Write.Arg].Name;
    const HostArray &H = D.array(Name);
    std::vector<bool> &M = Mask[Name];
    // { A[subscripts] }: the elements written, at the parameter values.
    isl::set Elements = instantiate(S.Write.Relation, D.Params).range();
    SlotMap Slots;
    std::vector<unsigned> Dims;
    for (unsigned I = 0; I < H.strides().size(); ++I)
      Dims.push_back(Slots.add("d" + std::to_string(I)));
    LoopNest L(Elements, Dims, Slots);
    std::vector<long> Env(Slots.size(), 0);
    L.forEach(Env.data(), [&] {
      long Off = 0;
      for (unsigned I = 0; I < Dims.size(); ++I)
        Off += Env[Dims[I]] * H.strides()[I];
      M.at(Off) = true;
    });
  }
  return Mask;
}

double reductionLength(const Statement &S, const ParamValues &Params) {
  isl::set Dom = instantiate(S.Domain, Params);
  if (Dom.is_empty())
    return 0;
  double R = 1;
  for (unsigned I : S.ReductionIndices) {
    int Pos = std::find(S.Indices.begin(), S.Indices.end(), I) -
              S.Indices.begin();
    long Lo = Dom.dim_min_val(Pos).get_num_si();
    long Hi = Dom.dim_max_val(Pos).get_num_si();
    R *= static_cast<double>(Hi - Lo + 1);
  }
  return R;
}

} // namespace loopy
