//===- Written.cpp - The elements a kernel writes, and how many terms -----===//
#include "loopy/Interp/Compare.h"

#include "Instantiate.h"
#include "LoopNest.h"
#include "loopy/Support/Isl.h"

#include <algorithm>

namespace loopy {

using namespace interp;

/// Whether every offset of \p H's buffer is an element inside the extents:
/// strides that are the products of the faster dimensions' extents, in
/// some order of the dimensions.
static bool denseLayout(const HostArray &H) {
  std::vector<std::pair<long, long>> ByStride; // (stride, extent)
  for (size_t D = 0; D < H.extents().size(); ++D)
    ByStride.push_back({H.strides()[D], H.extents()[D]});
  std::sort(ByStride.begin(), ByStride.end());
  long Next = 1;
  for (const auto &[Stride, Extent] : ByStride) {
    if (Extent <= 0 || Stride != Next)
      return false;
    Next *= Extent;
  }
  return static_cast<size_t>(Next) == H.size();
}

/// Whether \p Elements (a set of subscripts of \p H, with no parameters
/// left free) holds every element of \p H, whose layout is dense.
static bool everyElement(const isl::set &Elements, const HostArray &H) {
  isl_ctx *C = Elements.ctx().get();
  isl::set Box = isl::set::universe(Elements.get_space());
  for (unsigned D = 0; D < H.extents().size(); ++D) {
    Box = take(C, isl_set_lower_bound_si(Box.release(), isl_dim_set, D, 0));
    Box = take(C, isl_set_upper_bound_si(Box.release(), isl_dim_set, D,
                                         H.extents()[D] - 1));
  }
  return Box.is_subset(Elements);
}

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
    // A statement that writes the whole of a dense array (most do) marks
    // every element without visiting them: a 16000^2 one took seconds.
    if (denseLayout(H) && everyElement(Elements, H)) {
      M.assign(M.size(), true);
      continue;
    }
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
