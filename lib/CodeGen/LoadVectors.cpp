//===- LoadVectors.cpp - Width and rounds of cooperative loads ------------===//
#include "LoadVectors.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

namespace loopy {

/// The cooperative load of a stage reads 16 bytes at once where that is
/// safe for every block and tile: the element type is f32, f64, f16 or
/// bf16 (eight of them, moved as four 32-bit words), rows of
/// the array lie a whole number of vectors apart (a fixed extent of the
/// contiguous dimension, a multiple of the vector), the box starts on a
/// vector boundary, and isl proves that the footprint is made of whole
/// aligned vectors -- so that the guard of a vector's first element
/// decides all of it. Base pointers must be 16-byte aligned (the kernel's
/// metadata says so; cuMemAlloc always is).
static long loadVector(const StatementMapping &M, const Stage &St,
                       const Argument &A) {
  if ((A.Type != DType::F32 && A.Type != DType::F64 && !isHalf(A.Type)) ||
      A.Order == Layout::Strided || St.Box.Size.empty())
    return 1;
  const long V = 16 / dtypeSize(A.Type);
  const unsigned C = St.ContiguousDim;
  if (St.Box.Size[C] % V != 0)
    return 1;
  isl_ctx *X = isl_set_get_ctx(M.Context.get());
  // A multiple of V everywhere in the context: the extent, the box offset.
  auto MultipleOfV = [&](isl_pw_aff *P) {
    P = isl_pw_aff_align_params(P, isl_set_get_space(M.Context.get()));
    P = isl_pw_aff_intersect_params(P, M.Context.copy());
    P = isl_pw_aff_mod_val(P, isl_val_int_from_si(X, V));
    return isl::manage(isl_pw_aff_non_zero_set(P)).is_empty();
  };
  if (!MultipleOfV(
          M.fixSizes(isl::manage(isl_pw_aff_from_aff(A.Shape[C].copy())))
              .release()) ||
      !MultipleOfV(
          isl_pw_aff_from_aff(isl_multi_aff_get_at(St.Box.Offset.get(), C))))
    return 1;
  // { A[x] -> A[y] : y in x's aligned vector }
  unsigned N = St.Box.Size.size();
  std::string Xs, Ys, Same;
  for (unsigned D = 0; D < N; ++D) {
    std::string XD = "x" + std::to_string(D), YD = "y" + std::to_string(D);
    Xs += (D ? ", " : "") + XD;
    Ys += (D ? ", " : "") + YD;
    Same += (D ? " and " : "") +
            (D == C ? "floor(" + XD + "/" + std::to_string(V) + ") = floor(" +
                          YD + "/" + std::to_string(V) + ")"
                    : XD + " = " + YD);
  }
  isl::set Foot = St.Footprint.intersect_params(M.Context);
  std::string Name = isl_set_get_tuple_name(St.Footprint.get());
  isl_map *InVector =
      isl_map_read_from_str(X, ("{ " + Name + "[" + Xs + "] -> " + Name + "[" +
                                Ys + "] : " + Same + " }")
                                   .c_str());
  InVector = isl_map_align_params(InVector, isl_set_get_space(Foot.get()));
  // Every element of a vector that meets the footprint lies in it.
  isl::set Vectors = Foot.apply(isl::manage(InVector));
  return Vectors.is_subset(Foot) ? V : 1;
}

void chooseLoadVectors(std::vector<Stage> &Stages, const StatementMapping &M,
                       LoweringCache::Block &Facts) {
  const Kernel &K = *M.K;
  const Statement &S = *M.S;
  const Schedule &Sch = *M.Sch;
  long NT = Sch.totalThreads();
  for (Stage &St : Stages) {
    long &Known = Facts.Reads[St.Read].LoadVector;
    if (!Known)
      Known = loadVector(M, St, K.Args[S.Reads[St.Read].Arg]);
    St.LoadVector = Known;
    long E = 1;
    for (long Sz : St.Box.Size)
      E *= Sz;
    long Vectors = E / St.LoadVector;
    St.Rounds = (Vectors + NT - 1) / NT;
    // An asynchronous copy moves 4, 8 or 16 bytes to an address aligned to
    // them: a load vector qualifies where the buffer keeps the contiguous
    // dimension innermost and its rows and base are aligned to the vector
    // (the thread's read vector is a multiple of it). A transposed buffer
    // would take one copy per element: those stay in registers.
    long Bytes = St.LoadVector * dtypeSize(K.Args[S.Reads[St.Read].Arg].Type);
    bool Aligned = St.LoadVector == 1 ||
                   (!St.Order.empty() && St.Order.back() == St.ContiguousDim &&
                    St.Vector % St.LoadVector == 0);
    St.Async = Sch.Async && M.doubleBuffered() && Aligned &&
               (Bytes == 4 || Bytes == 8 || Bytes == 16);
    if (St.Async)
      St.Next.clear();
  }
}

} // namespace loopy
