//===- Figures.cpp - What a schedule needs, without its code --------------===//
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Mma.h"
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

struct FiguresMemo::Entry {
  /// The schedule mapped, without staged reads: the mapping's index maps
  /// point into it.
  Schedule Base;
  std::optional<Failure> Failed;
  bool Empty = false;
  /// Bounded by boundBlocks.
  std::optional<StatementMapping> M;
  /// The grid's figures.
  LoweringFigures Grid;
};

FiguresMemo::FiguresMemo() = default;
FiguresMemo::~FiguresMemo() = default;

namespace {

/// Maps \p E.Base and bounds its blocks, or records why it cannot be.
void mapAndBound(const Kernel &K, const Statement &S, LoweringCache &C,
                 FiguresMemo::Entry &E) {
  auto M = mapStatement(K, S, E.Base, C);
  if (!M) {
    E.Failed = M.takeFailure();
    return;
  }
  if (statementIsEmpty(K, S)) {
    E.Empty = true;
    return;
  }
  LoweringCache::Block &Facts = C.block(M->blockKey());
  boundBlocks(*M, Facts);
  // The grid follows from the block's tile alone: the schedules that split
  // one tile among threads and registers in different ways share it.
  if (!Facts.Gridded) {
    BlockGrid Grid = blockGrid(*M, /*WithLaunchIf=*/false);
    for (int A = 0; A < 3; ++A) {
      Facts.GridC[A] = Grid.C[A];
      if (M->BlockMax[A])
        countBlocks(*M->BlockMax[A], K.Context, Facts.Blocks[A],
                    Facts.BlocksMax[A]);
    }
    Facts.Gridded = true;
  }
  for (int A = 0; A < 3; ++A) {
    E.Grid.Grid[A] = Facts.GridC[A];
    E.Grid.Blocks[A] = Facts.Blocks[A];
    E.Grid.BlocksMax[A] = Facts.BlocksMax[A];
  }
  E.M = std::move(*M);
}

} // namespace

Expected<LoweringFigures> analyzeStatement(const Kernel &K, const Statement &S,
                                           const Schedule &Sch,
                                           LoweringCache *Cache,
                                           FiguresMemo *Memo) {
  LoweringCache Own;
  LoweringCache &C = Cache ? *Cache : Own;
  FiguresMemo::Entry Local;
  FiguresMemo::Entry *E = &Local;
  if (Memo) {
    // The mapping does not depend on what is staged.
    Schedule Base = Sch;
    Base.Prefetch.clear();
    Base.Pipelined = false;
    Base.Async = false;
    Base.Buffers = 2;
    std::unique_ptr<FiguresMemo::Entry> &Slot =
        Memo->Entries[Base.str(K, S)];
    // An entry that neither failed nor was mapped was cut short by isl's
    // operations quota: it is made again.
    if (!Slot || (!Slot->M && !Slot->Failed && !Slot->Empty)) {
      Slot = std::make_unique<FiguresMemo::Entry>();
      Slot->Base = std::move(Base);
      mapAndBound(K, S, C, *Slot);
    }
    E = Slot.get();
  } else {
    Local.Base = Sch;
    mapAndBound(K, S, C, Local);
  }
  if (E->Failed)
    return *E->Failed;
  if (E->Empty) {
    LoweringFigures F;
    F.Empty = true;
    for (int A = 0; A < 3; ++A) {
      F.Grid[A] = "0";
      F.Blocks[A] = F.BlocksMax[A] = 0;
    }
    F.StageElements.assign(Sch.Prefetch.size(), 0);
    return F;
  }
  // A copy for this schedule's staged reads, whose names it takes.
  StatementMapping M = *E->M;
  M.Sch = &Sch;
  auto Stages = stageReads(M, C.block(M.blockKey()));
  if (!Stages)
    return Stages.takeFailure();
  if (Sch.Mma)
    if (std::string Rule = mmaTileRule(M, *Stages); !Rule.empty())
      return Failure::user(Rule);

  LoweringFigures F = E->Grid;
  std::vector<long> Buffers; // bytes of each shared buffer, in order
  for (const Stage &St : *Stages) {
    long N = 1, P = dtypeSize(K.Args[S.Reads[St.Read].Arg].Type);
    for (size_t D = 0; D < St.Box.Size.size(); ++D) {
      N *= St.Box.Size[D];
      P *= St.Padded[D];
    }
    F.StageElements.push_back(N);
    Buffers.push_back(St.Buffers * P);
  }
  if (M.BlockRed)
    for (const Accumulator &A : M.Accs)
      Buffers.push_back(dtypeSize(computeType(A.Reduce->Type)) * M.RegCount *
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
