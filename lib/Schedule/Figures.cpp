//===- Figures.cpp - What a schedule needs, without its code --------------===//
#include "loopy/Schedule/Figures.h"
#include "loopy/Schedule/Footprint.h"
#include "loopy/Schedule/Mapping.h"

namespace loopy {

Expected<LoweringFigures> analyzeStatement(const Kernel &K, const Statement &S,
                                           const Schedule &Sch,
                                           LoweringCache *Cache) {
  LoweringCache Own;
  LoweringCache &C = Cache ? *Cache : Own;
  auto M = mapStatement(K, S, Sch, C);
  if (!M)
    return M.takeFailure();
  LoweringCache::Block &Facts = C.block(M->blockKey());
  boundBlocks(*M, Facts);
  auto Stages = stageReads(*M, Facts);
  if (!Stages)
    return Stages.takeFailure();

  LoweringFigures F;
  BlockGrid Grid = blockGrid(*M, /*WithLaunchIf=*/false);
  for (int A = 0; A < 3; ++A)
    F.Grid[A] = Grid.C[A];
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
