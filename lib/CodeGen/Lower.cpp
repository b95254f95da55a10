//===- Lower.cpp - Kernel IR + Schedule to the device AST -----------------===//
//
// The lowering of one statement under one schedule, as a list of steps,
// each in its own file:
//
//   mapStatement       Mapping.cpp           indices on blocks, threads and
//                                            registers; per-thread domains
//   boundBlocks        Mapping.cpp           the range of the block ids
//   stageReads         Footprint.cpp         footprints, boxes, buffers
//   chooseLoadVectors  LoadVectors.cpp       width and rounds of the loads
//   buildAddressing    Addressing.cpp        strides of the global arrays
//   indexFitsIn32Bits  IndexWidth.cpp        int or 64-bit index arithmetic
//   declareKernel      KernelSignature.cpp   parameters and buffers
//   blockCode          BlockCode.cpp         uniform loops around the pieces'
//                                            thread code (ThreadCode.cpp,
//                                            through LoopNests.cpp,
//                                            AstToDevice.cpp and
//                                            StatementText.cpp) and the
//                                            cooperative loads
//                                            (CooperativeLoads.cpp); under
//                                            mma, the tiles' update on the
//                                            tensor cores (MatrixCode.cpp)
//   finishKernel       KernelSignature.cpp   grid and header
//   zeroOutputsKernel  SplitReduction.cpp    the kernel before a split
//                                            reduction
//   emptyKernel        KernelSignature.cpp   instead of all but the first
//                                            step, where the statement
//                                            has no point
//
//===----------------------------------------------------------------------===//
#include "loopy/CodeGen/Lower.h"
#include "Addressing.h"
#include "BlockCode.h"
#include "CodeGenState.h"
#include "IndexWidth.h"
#include "KernelSignature.h"
#include "LoadVectors.h"
#include "SplitReduction.h"
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/FullTiles.h"
#include "loopy/Schedule/Mapping.h"
#include "loopy/Schedule/Mma.h"
#include "loopy/Support/Isl.h"

#include <isl/ctx.h>

#include <cassert>

namespace loopy {

using namespace device;

namespace {

/// The most statements a nest of loops over reduction tiles unrolls to
/// (capUnrolling). NVRTC's time grows with the code, and a nest unrolled
/// whole can exhaust the registers: on an H200, a 4-index contraction's
/// 30 outputs per thread over 8 x 8 values of its two reduction indices
/// (1920 updates) took NVRTC 4.4 s and spilled registers; with the outer
/// loop unrolled by 4 (960) it took 2.2 s, fit in 254 registers and won
/// the search at 0.575 ms, where the best without spills had taken 0.729.
/// A lone loop stays whole: matmul's 64 outputs over 32 values of k ran 2
/// to 10% slower unrolled by 16.
constexpr long UnrolledStatementCap = 1024;
/// The steps themselves; lowerStatement adds the handling of isl's errors.
Expected<std::vector<DeviceKernel>> lowerSteps(const Kernel &K,
                                               const Statement &S,
                                               const Schedule &Sch,
                                               LoweringCache &Cache) {
  auto M = mapStatement(K, S, Sch, Cache);
  if (!M)
    return M.takeFailure();
  std::vector<DeviceKernel> Out;
  if (statementIsEmpty(K, S)) {
    Out.push_back(emptyKernel(K, S, Sch));
    return Out;
  }
  LoweringCache::Block &Facts = Cache.block(M->blockKey());
  boundBlocks(*M, Facts);
  auto Stages = stageReads(*M, Facts);
  if (!Stages)
    return Stages.takeFailure();
  if (Sch.Mma)
    if (std::string Rule = mmaTileRule(*M, *Stages); !Rule.empty())
      return Failure::user(Rule);
  chooseLoadVectors(*Stages, *M, Facts);
  Addressing Addr = buildAddressing(*M);
  std::optional<bool> &Index32 = Cache.statement(S.Name).Index32;
  if (!Index32)
    Index32 = indexFitsIn32Bits(K, S);

  CodeGenState G(*M, *Stages, Addr, *Index32, Cache);
  G.Overcompute = overcomputeDomain(*M, *Stages);
  DeviceKernel DK = declareKernel(G);
  DK.Body = blockCodeByTiles(G);
  capUnrolling(G, DK.Body, UnrolledStatementCap);
  finishKernel(DK, G);
  if (M->splitAcrossBlocks())
    Out.push_back(zeroOutputsKernel(G, DK));
  Out.push_back(std::move(DK));
  return Out;
}
} // namespace

Expected<std::vector<DeviceKernel>> lowerStatement(const Kernel &K,
                                                   const Statement &S,
                                                   const Schedule &Sch,
                                                   LoweringCache *Cache) {
  LoweringCache Own;
  isl_ctx *Ctx = K.Domain.ctx().get();
  // isl's C calls report an error by their result and the context's last
  // error; the C++ ones throw. Either way it surfaces here: as a failure
  // of loopyc itself, or where isl's quota ran out, as the quota's
  // exception that the drivers report.
  isl_ctx_reset_error(Ctx);
  std::optional<Expected<std::vector<DeviceKernel>>> R;
  try {
    R.emplace(lowerSteps(K, S, Sch, Cache ? *Cache : Own));
  } catch (isl::exception_quota &) {
    throw;
  } catch (isl::exception &E) {
    // A C call past the quota returned null, and a later call failed on
    // it: the quota is the cause.
    rethrowQuotaError(Ctx);
    std::string Text = islFailureText(Ctx, E);
    isl_ctx_reset_error(Ctx);
    return Failure::internal(Text);
  }
  rethrowQuotaError(Ctx);
  if (isl_ctx_last_error(Ctx) != isl_error_none) {
    const char *Msg = isl_ctx_last_error_msg(Ctx);
    std::string Text = std::string("isl: ") + (Msg ? Msg : "unknown error");
    isl_ctx_reset_error(Ctx);
    return Failure::internal(Text + " while lowering statement " + S.Name);
  }
  return std::move(*R);
}

Expected<DeviceProgram> lowerKernel(const Kernel &K,
                                    const std::vector<Schedule> &Schedules,
                                    LoweringCache *Cache) {
  assert(Schedules.size() == K.Stmts.size() &&
         "a schedule per statement of the kernel (a merged or fused variant's "
         "maps its view of the kernel: lowerVariant)");
  DeviceProgram P;
  P.KernelName = K.Name;
  for (size_t I = 0; I < K.Stmts.size(); ++I) {
    auto DKs = lowerStatement(K, K.Stmts[I], Schedules[I], Cache);
    if (!DKs)
      return DKs.takeFailure();
    P.Schedule += (I ? " | " : "") + Schedules[I].str(K, K.Stmts[I]);
    for (DeviceKernel &DK : *DKs)
      P.Kernels.push_back(std::move(DK));
  }
  return P;
}

} // namespace loopy
