//===- CostModel.cpp - Static estimate of a schedule's run time -----------===//
//
// A deliberately simple model, good enough to rank a sensible variant first
// when no GPU is at hand; the tuner's measurements overrule it. Sizes not
// fixed with -D are taken as 1024. It estimates:
//   - global memory traffic: staged reads load their footprint box once per
//     block and tile; other reads load once per use, divided by the
//     register reuse of the thread's outputs that do not depend on them, and
//     multiplied when consecutive threads do not touch consecutive elements;
//   - arithmetic: two operations per iteration and write (a fused
//     statement has several), and an issue slot per load (from a staged
//     buffer, a vector of a thread's adjacent outputs' elements is one);
//   - shared memory traffic: staged reads are read from their buffer at
//     every iteration, divided by the register reuse as above, and
//     multiplied where a warp's lanes read the same banks;
//   - how well the GPU is filled: threads in flight against its capacity,
//     with registers and shared memory limiting blocks per multiprocessor.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include "loopy/Schedule/Fusion.h"
#include "loopy/Schedule/IslUtil.h"
#include "loopy/Planner/Planner.h"
#include "loopy/Support/Isl.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cmath>

namespace loopy {

namespace {

// An H100-class GPU, for ranking only.
constexpr double Bandwidth = 3.0e12; // bytes/s
constexpr double Flops = 50.0e12;    // fp32 FMA rate, counted as 2 ops
// mma.sync on 16-bit operands against fp32 FMAs, products per second; on
// tf32 operands half that; on f64 ones against f64 FMAs.
constexpr double TensorCoreSpeedup = 8;
constexpr double Tf32TensorCoreSpeedup = 4;
constexpr double DoubleTensorCoreSpeedup = 2;
constexpr double SMs = 132;
constexpr double ThreadsPerSM = 2048;
constexpr double RegistersPerSM = 65536;
constexpr double SharedPerSM = 228 * 1024;
// 128 bytes per clock and multiprocessor at about 1.9 GHz.
constexpr double SharedBandwidth = 32.0e12; // bytes/s, all multiprocessors

/// Extent of every statement index at the assumed sizes.
std::vector<double> extents(const Kernel &K, const Statement &S) {
  isl::set D = S.Domain;
  for (unsigned P = 0; P < K.ParamNames.size(); ++P)
    if (!K.Fixed.count(K.ParamNames[P])) {
      isl::set F = isl::manage(isl_set_fix_si(D.copy(), isl_dim_param, P, 1024));
      if (!F.is_empty())
        D = F;
    }
  std::vector<double> E;
  for (unsigned I = 0; I < S.Indices.size(); ++I) {
    double Ext = 1024;
    // An unbounded index has no minimum or maximum: isl's error is the
    // answer here, and the extent stays the assumed 1024.
    isl::pw_aff Lo = isl::manage(isl_set_dim_min(D.copy(), I));
    isl::pw_aff Hi = isl::manage(isl_set_dim_max(D.copy(), I));
    if (!Lo.is_null() && !Hi.is_null() &&
        isl_pw_aff_is_cst(Lo.get()) == isl_bool_true &&
        isl_pw_aff_is_cst(Hi.get()) == isl_bool_true) {
      auto Val = [](const isl::pw_aff &PA) {
        double V = 0;
        isl_pw_aff_foreach_piece(
            PA.get(),
            [](isl_set *Dom, isl_aff *A, void *U) -> isl_stat {
              isl::set OwnDom = isl::manage(Dom);
              isl::aff OwnA = isl::manage(A);
              isl::val C = isl::manage(isl_aff_get_constant_val(OwnA.get()));
              *static_cast<double *>(U) = isl_val_get_d(C.get());
              return isl_stat_ok;
            },
            &V);
        return V;
      };
      Ext = Val(Hi) - Val(Lo) + 1;
    }
    rethrowQuotaError(D.ctx().get());
    isl_ctx_reset_error(D.ctx().get());
    E.push_back(std::max(1.0, Ext));
  }
  return E;
}

/// How many transactions' worth of traffic a warp's access costs relative
/// to a perfectly coalesced one.
double coalescingPenalty(const Kernel &K, const Access &Acc,
                         const Schedule &Sch, const CostFacts &Facts) {
  const Argument &A = K.Args[Acc.Arg];
  if (A.rank() == 0)
    return 1;
  int Contig = A.Order == Layout::ColMajor ? 0 : A.rank() - 1;
  const IndexMap *X = nullptr;
  for (const IndexMap &M : Sch.Maps)
    if ((M.K == IndexMap::Kind::Grid || M.K == IndexMap::Kind::Block) &&
        M.Ax == Axis::X)
      X = &M;
  if (!X || X->Threads == 1)
    return 1;
  if (!Facts.uses(Acc, -1, X->Index))
    return 1; // every thread of a warp reads the same element
  if (!Facts.uses(Acc, Contig, X->Index))
    return 8; // consecutive threads read different rows
  if (X->K == IndexMap::Kind::Grid && X->run() > 1)
    return std::min<double>(X->run(), 8);
  return 1;
}

/// How many passes of the shared-memory banks a warp's read of a staged
/// buffer takes relative to a conflict-free one. A thread's outputs on x
/// in runs of R adjacent elements put the lanes R elements apart; each
/// run is read as vectors of up to 16 bytes, and where the run is longer
/// than one vector, the lanes of each pass share banks R / V times over
/// (eight adjacent f32 outputs: two passes per vector read).
double bankPasses(const Kernel &K, const Access &Acc, const Schedule &Sch,
                  const CostFacts &Facts) {
  for (const IndexMap &M : Sch.Maps) {
    if (M.K != IndexMap::Kind::Grid || M.Ax != Axis::X || M.Threads == 1 ||
        !Facts.uses(Acc, -1, M.Index))
      continue;
    double Run = M.run();
    double Vector =
        std::min(Run, std::max(1.0, 16.0 / dtypeSize(K.Args[Acc.Arg].Type)));
    return std::max(1.0, Run / Vector);
  }
  return 1;
}

/// The elements a thread reads from a staged buffer with one load: its
/// outputs along a grid index that the read follows come in runs of
/// adjacent elements, read as vectors of up to 16 bytes (x first, where
/// the warp's lanes differ).
double loadVector(const Kernel &K, const Access &Acc, const Schedule &Sch,
                  const CostFacts &Facts) {
  double Widest = 16.0 / dtypeSize(K.Args[Acc.Arg].Type);
  for (Axis A : {Axis::X, Axis::Y})
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid && M.Ax == A &&
          Facts.uses(Acc, -1, M.Index))
        return std::max(1.0, std::min<double>(M.run(), Widest));
  return 1;
}

} // namespace

CostFacts::CostFacts(const Kernel &K, const Statement &S)
    : S(S), Extents(loopy::extents(K, S)) {
  auto Add = [&](const Access &Acc) {
    std::vector<std::vector<bool>> &U = Uses[&Acc];
    for (int Dim = -1; Dim < static_cast<int>(K.Args[Acc.Arg].rank()); ++Dim) {
      U.emplace_back();
      for (unsigned I = 0; I < S.Indices.size(); ++I)
        U.back().push_back(accessUses(Acc.Relation, Dim, I));
    }
  };
  for (const Access &Acc : S.Reads)
    Add(Acc);
  for (unsigned O = 0; O < outputCount(S); ++O)
    Add(outputWrite(S, O));
}

bool CostFacts::uses(const Access &Acc, int Dim, unsigned Index) const {
  auto It = std::find(S.Indices.begin(), S.Indices.end(), Index);
  auto U = Uses.find(&Acc);
  if (It == S.Indices.end() || U == Uses.end() ||
      Dim + 1 >= static_cast<int>(U->second.size()))
    return false;
  return U->second[Dim + 1][It - S.Indices.begin()];
}

double estimateCost(const Kernel &K, const Statement &S, const Schedule &Sch,
                    const LoweringFigures &F, const CostFacts &Facts) {
  const std::vector<double> &Ext = Facts.extents();
  auto ExtentOf = [&](unsigned Index) {
    auto It = std::find(S.Indices.begin(), S.Indices.end(), Index);
    return It == S.Indices.end() ? 1.0 : Ext[It - S.Indices.begin()];
  };
  double Iters = 1;
  for (double E : Ext)
    Iters *= E;
  double Outputs = 1, Blocks = 1, Covered = 1;
  for (unsigned O : S.OutputIndices)
    Outputs *= ExtentOf(O);
  for (const IndexMap &M : Sch.Maps) {
    if (M.K == IndexMap::Kind::Grid) {
      double B = std::ceil(ExtentOf(M.Index) / M.blockTile());
      Blocks *= B;
      Covered *= B * M.blockTile();
    }
    if (M.K == IndexMap::Kind::Block && M.Chunk)
      Blocks *= std::ceil(ExtentOf(M.Index) / M.Chunk);
  }
  // Partial tiles waste threads.
  double Waste = Covered / std::max(1.0, Outputs / [&] {
    double Seq = 1;
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Seq &&
          std::find(S.OutputIndices.begin(), S.OutputIndices.end(), M.Index) !=
              S.OutputIndices.end())
        Seq *= ExtentOf(M.Index);
    return Seq;
  }());
  Waste = std::max(1.0, Waste);

  const IndexMap *Tiled = Sch.tiledReduction();
  double Tiles = Tiled ? std::ceil(ExtentOf(Tiled->Index) / Tiled->Tile) : 1;
  double Bytes = 0, SharedTraffic = 0, Loads = 0;
  unsigned StageNo = 0;
  std::vector<bool> Every = readsAtEveryPoint(S);
  for (unsigned R = 0; R < S.Reads.size(); ++R) {
    const Access &Acc = S.Reads[R];
    // A read outside the reduction happens once per output.
    double Reads = Every[R] ? Iters : Outputs;
    double Elem = dtypeSize(K.Args[Acc.Arg].Type);
    // Register reuse: a thread's outputs along indices the read does not
    // depend on share one load.
    double Reuse = 1;
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid && !Facts.uses(Acc, -1, M.Index))
        Reuse *= M.Ilp;
    if (std::find(Sch.Prefetch.begin(), Sch.Prefetch.end(), R) !=
        Sch.Prefetch.end()) {
      // Loaded once per block and tile, and again in each iteration of a
      // sequential loop over an output index that the read depends on
      // (the stage sits inside it); then read from shared memory at every
      // iteration, shared by the thread's outputs as above.
      double Rounds = Tiles;
      for (const IndexMap &M : Sch.Maps)
        if (M.K == IndexMap::Kind::Seq && Facts.uses(Acc, -1, M.Index) &&
            std::find(S.OutputIndices.begin(), S.OutputIndices.end(),
                      M.Index) != S.OutputIndices.end())
          Rounds *= ExtentOf(M.Index);
      // A reduction loop around the tiles stages a tile per value (or per
      // tile of its values).
      for (const IndexMap &M : Sch.Maps)
        if (M.K == IndexMap::Kind::Seq && M.Outer)
          Rounds *= std::ceil(ExtentOf(M.Index) / M.Tile);
      Bytes += F.StageElements[StageNo++] * Blocks * Rounds * Elem;
      SharedTraffic +=
          Iters * Waste / Reuse * Elem * bankPasses(K, Acc, Sch, Facts);
      Loads += Iters * Waste / Reuse / loadVector(K, Acc, Sch, Facts);
      continue;
    }
    // The cache catches part of the reuse between threads of a block.
    double Shared = 1;
    for (const IndexMap &M : Sch.Maps)
      if (M.K == IndexMap::Kind::Grid && !Facts.uses(Acc, -1, M.Index))
        Shared *= std::min<double>(M.Threads, 4);
    Bytes += Reads / Reuse / Shared * Elem * coalescingPenalty(K, Acc, Sch, Facts);
    Loads += Reads / Reuse;
  }
  // A fused statement (Fusion.h) writes each of its outputs; its reads
  // above are the group's, each array and access relation once.
  unsigned Writes = outputCount(S);
  for (unsigned O = 0; O < Writes; ++O)
    Bytes += Outputs * dtypeSize(K.Args[outputWrite(S, O).Arg].Type) *
             coalescingPenalty(K, outputWrite(S, O), Sch, Facts);

  // Occupancy.
  double T = Sch.totalThreads();
  // Accumulators, a register per operand element of the tile, addresses.
  double Operands = 0;
  for (const IndexMap &M : Sch.Maps)
    if (M.K == IndexMap::Kind::Grid)
      Operands += M.Ilp;
  double Regs = 24 + Sch.registerOutputs() * Writes + Operands +
                (Sch.Prefetch.empty() ? 0 : 8);
  double ByRegs = std::floor(RegistersPerSM / (Regs * T));
  double ByThreads = std::floor(ThreadsPerSM / T);
  double ByShared =
      F.SharedBytes ? std::floor(SharedPerSM / F.SharedBytes) : ByThreads;
  double PerSM = std::max(0.0, std::min({ByRegs, ByThreads, ByShared, 32.0}));
  if (PerSM == 0)
    return 1e9; // does not fit at all
  // Threads past the extents (Waste) are resident but idle.
  double Resident = std::min(Blocks, PerSM * SMs) * T / Waste;
  // Independent work in flight: working threads times outputs per thread.
  double Fill = std::min(1.0, Resident * std::min(8.0, (double)Sch.registerOutputs()) /
                                  (SMs * ThreadsPerSM * 2));
  double Eff = 0.05 + 0.95 * Fill;
  // Loads take issue slots beside the FMAs. On the tensor cores
  // (Schedule/Mma.h) the products run several times faster than FMAs
  // and each shared load of 16-bit operands brings two elements.
  double Products = Iters * Writes * Waste;
  if (Sch.Mma && Sch.Tf32) {
    Products /= Tf32TensorCoreSpeedup;
  } else if (Sch.Mma && !Sch.Prefetch.empty() &&
             dtypeSize(K.Args[S.Reads[Sch.Prefetch[0]].Arg].Type) == 8) {
    Products /= DoubleTensorCoreSpeedup;
  } else if (Sch.Mma) {
    Products /= TensorCoreSpeedup;
    Loads /= 2;
  }
  double Time = std::max({Bytes / Bandwidth, 2 * (Products + Loads) / Flops,
                          SharedTraffic / SharedBandwidth}) /
                Eff;
  // Shared-memory staging costs a little per tile; barriers serialise.
  if (!Sch.Prefetch.empty())
    Time *= Sch.Pipelined ? 1.01 : 1.02;
  return Time;
}


} // namespace loopy
