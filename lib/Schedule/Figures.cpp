//===- Figures.cpp - What a schedule needs, without its code --------------===//
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/set.h>

#include <climits>

namespace loopy {

bool statementIsEmpty(const Kernel &K, const Statement &S) {
  return S.Domain.intersect_params(K.Context).is_empty();
}

namespace {

/// \p V as a long; LONG_MAX past it, -1 where it is not an integer (an
/// unbounded maximum).
long boundedLong(const isl::val &V) {
  if (V.is_null() || !V.is_int())
    return -1;
  if (V.gt(isl::val(V.ctx(), LONG_MAX)))
    return LONG_MAX;
  return V.get_num_si();
}

/// The blocks along axis \p A over the kernel's context \p Ctx: exactly
/// (the same for every parameter value) or -1, and at most.
/// \param BlockMax { [params] -> [largest block id] } where the statement
/// has blocks along \p A
void countBlocks(const isl::pw_aff &BlockMax, const isl::set &Ctx,
                 long &Exact, long &Most) {
  isl_ctx *C = Ctx.ctx().get();
  isl::pw_aff Count = BlockMax.add(take(
      C, isl_pw_aff_val_on_domain(BlockMax.domain().release(), isl_val_one(C))));
  isl::set None = Ctx.subtract(Count.domain());
  if (!None.is_empty())
    Count = take(C, isl_pw_aff_union_max(
                        Count.release(),
                        isl_pw_aff_val_on_domain(None.release(),
                                                 isl_val_zero(C))));
  // The extremes of the graph's last coordinate, the parameters made set
  // dimensions: the pieces of Count may have rational coefficients (n / 4
  // where n is a multiple of 4), which isl_pw_aff_min_val cannot take.
  isl::set Graph = take(C, isl_set_from_pw_aff(Count.release()));
  unsigned NP = checkSize(C, isl_set_dim(Graph.get(), isl_dim_param));
  Graph = take(C, isl_set_move_dims(Graph.release(), isl_dim_set, 0,
                                    isl_dim_param, 0, NP));
  isl::aff Value = take(
      C, isl_aff_var_on_domain(isl_local_space_from_space(Graph.space().release()),
                               isl_dim_set, NP));
  long Min = boundedLong(take(C, isl_set_min_val(Graph.get(), Value.get())));
  long Max = boundedLong(take(C, isl_set_max_val(Graph.get(), Value.get())));
  Most = Max;
  Exact = Min >= 0 && Min == Max ? Max : -1;
}

} // namespace

Expected<LoweringFigures> analyzeStatement(const Kernel &K, const Statement &S,
                                           const Schedule &Sch,
                                           LoweringCache *Cache) {
  LoweringCache Own;
  LoweringCache &C = Cache ? *Cache : Own;
  auto M = mapStatement(K, S, Sch, C);
  if (!M)
    return M.takeFailure();
  if (statementIsEmpty(K, S)) {
    LoweringFigures F;
    F.Empty = true;
    for (int A = 0; A < 3; ++A) {
      F.Grid[A] = "0";
      F.Blocks[A] = F.BlocksMax[A] = 0;
    }
    F.StageElements.assign(Sch.Prefetch.size(), 0);
    return F;
  }
  LoweringCache::Block &Facts = C.block(M->blockKey());
  boundBlocks(*M, Facts);
  auto Stages = stageReads(*M, Facts);
  if (!Stages)
    return Stages.takeFailure();

  LoweringFigures F;
  BlockGrid Grid = blockGrid(*M, /*WithLaunchIf=*/false);
  for (int A = 0; A < 3; ++A) {
    F.Grid[A] = Grid.C[A];
    if (M->BlockMax[A])
      countBlocks(*M->BlockMax[A], K.Context, F.Blocks[A], F.BlocksMax[A]);
    else
      F.Blocks[A] = F.BlocksMax[A] = 1;
  }
  std::vector<long> Buffers; // bytes of each shared buffer, in order
  for (const Stage &St : *Stages) {
    long N = 1, P = dtypeSize(K.Args[S.Reads[St.Read].Arg].Type);
    for (size_t D = 0; D < St.Box.Size.size(); ++D) {
      N *= St.Box.Size[D];
      P *= St.Padded[D];
    }
    F.StageElements.push_back(N);
    Buffers.push_back(St.Parity.empty() ? P : 2 * P);
  }
  if (M->BlockRed)
    for (const Accumulator &A : M->Accs)
      Buffers.push_back(dtypeSize(A.Reduce->Type) * M->RegCount *
                        Sch.totalThreads());
  // Past the static limit the buffers are carved at multiples of 16 bytes
  // (DeviceKernel::sharedOffsets).
  for (long B : Buffers)
    F.SharedBytes += B;
  if (F.SharedBytes > StaticSharedLimit) {
    F.SharedBytes = 0;
    for (long B : Buffers)
      F.SharedBytes += dynamicSharedSlot(B);
  }
  return F;
}

} // namespace loopy
