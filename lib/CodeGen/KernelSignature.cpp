//===- KernelSignature.cpp - A kernel's parameters, buffers, header -------===//
#include "KernelSignature.h"
#include "loopy/Schedule/Fusion.h"
#include "loopy/IR/IRPrinter.h"
#include "loopy/Support/Isl.h"

#include <algorithm>

namespace loopy {

using namespace device;

namespace {
/// The kernel's parameters: the arguments of \p K in order, index
/// parameters fixed with -D becoming constants.
void declareParams(DeviceKernel &DK, const Kernel &K) {
  for (const Argument &A : K.Args) {
    KernelParam P;
    P.Name = A.Name;
    P.Type = A.Type;
    if (A.Kind == ArgKind::Index) {
      auto It = K.Fixed.find(A.Name);
      if (It != K.Fixed.end()) {
        DK.Constants.push_back({A.Name, It->second});
        continue;
      }
      P.K = KernelParam::Kind::Index;
      P.Type = DType::I64;
    } else if (A.Kind == ArgKind::Scalar) {
      P.K = KernelParam::Kind::Scalar;
    } else {
      P.K = A.Mode == ArgMode::In ? KernelParam::Kind::InArray
                                  : KernelParam::Kind::OutArray;
      P.Temporary = A.Internal;
      if (A.Internal)
        for (const isl::aff &E : A.Shape)
          P.Extents.push_back(printC(E));
    }
    DK.Params.push_back(std::move(P));
  }
}

std::string statementLine(const Kernel &K, const Statement &S) {
  // A fused statement (Fusion.h) lists its writes in turn.
  std::string Line = "kernel " + K.Name + ", statement" +
                     (S.MoreOutputs.empty() ? " " : "s ") + S.Name + ": ";
  for (unsigned O = 0; O < outputCount(S); ++O)
    Line += (O ? "; " : "") + outputWrite(S, O).Spelling + " = " +
            printExpr(K, outputRhs(S, O));
  return Line;
}

std::string kernelName(const Kernel &K, const Statement &S) {
  return K.Stmts.size() == 1 ? K.Name : K.Name + "_" + S.Name;
}
} // namespace

DeviceKernel declareKernel(const CodeGenState &G) {
  const StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Statement &S = *G.M.S;
  const Schedule &Sch = *G.M.Sch;
  DeviceKernel DK;
  DK.Index32 = G.Index32;
  DK.Atomics = M.splitAcrossBlocks();
  DK.Async = std::any_of(G.Stages.begin(), G.Stages.end(),
                         [](const Stage &St) { return St.Async; });
  DK.Mma = M.Sch->Mma;
  DK.Name = kernelName(K, S);
  DK.MinBlocks = Sch.MinBlocks;
  // Further output indices on z: blockIdx.z numbers their blocks within
  // those of the first, the last index fastest.
  long Parts = 1;
  for (long N : M.ZPartBlocks)
    Parts *= N;
  for (int A = 0; A < 3; ++A) {
    DK.BlockDim[A] = Sch.threads(static_cast<Axis>(A));
    if (!M.BlockId[A].empty())
      DK.Ids.push_back({M.BlockId[A], true, static_cast<Axis>(A),
                        A == static_cast<int>(Axis::Z) ? Parts : 1});
  }
  long Below = 1;
  for (size_t I = M.ZParts.size(); I-- > 0;) {
    DK.Ids.push_back({M.ZParts[I], true, Axis::Z, Below, M.ZPartBlocks[I]});
    Below *= M.ZPartBlocks[I];
  }
  for (int A = 0; A < 3; ++A)
    if (!M.ThreadId[A].empty())
      DK.Ids.push_back({M.ThreadId[A], false, static_cast<Axis>(A)});
  // The warps' coordinates: z = C * row + column.
  long Cols = M.Sch->MmaWarps[1];
  if (!M.WarpId[0].empty())
    DK.Ids.push_back({M.WarpId[0], false, Axis::Z, Cols, 0});
  if (!M.WarpId[1].empty())
    DK.Ids.push_back({M.WarpId[1], false, Axis::Z, 1, Cols});

  declareParams(DK, K);
  for (const Accumulator &A : M.Accs)
    DK.Registers.push_back(
        {A.Name,
         computeType(A.Reduce->Type),
         {M.RegCount},
         "partial " + std::string(reduceOpName(A.Reduce->reduceOp())) +
             " of each of the thread's outputs"});
  for (const Stage &St : G.Stages) {
    DType T = K.Args[S.Reads[St.Read].Arg].Type;
    if (!St.Next.empty())
      DK.Registers.push_back({St.Next,
                              T,
                              {St.Rounds * St.LoadVector},
                              "this thread's part of the next tile of " +
                                  S.Reads[St.Read].Spelling});
    std::string What = "footprint of " + S.Reads[St.Read].Spelling;
    if (St.Order.size() > 1 && St.Order.back() != St.Order.size() - 1)
      What += ", transposed";
    if (St.Held != St.Box.Size)
      What += ", in the box of whole tiles";
    std::vector<long> Dims = St.Padded;
    if (!St.Parity.empty()) {
      Dims.insert(Dims.begin(), St.Buffers);
      What += St.Buffers == 2 ? ", two tiles"
                              : ", " + std::to_string(St.Buffers) + " tiles";
    }
    DK.Shared.push_back(
        {St.Buf, T, Dims, What, St.Vector > 1 ? St.Vector * dtypeSize(T) : 0});
    const std::string &Arr = K.Args[S.Reads[St.Read].Arg].Name;
    if (St.LoadVector > 1 &&
        std::none_of(DK.Aligned.begin(), DK.Aligned.end(),
                     [&](const auto &X) { return X.first == Arr; }))
      DK.Aligned.push_back({Arr, St.LoadVector * dtypeSize(T)});
  }
  if (M.BlockRed)
    for (const Accumulator &A : M.Accs)
      DK.Shared.push_back({"red_" + A.Name,
                           computeType(A.Reduce->Type),
                           {M.RegCount, Sch.threads(Axis::Z),
                            Sch.threads(Axis::Y), Sch.threads(Axis::X)},
                           "partial results of every thread"});
  return DK;
}

void finishKernel(DeviceKernel &DK, const CodeGenState &G) {
  const StatementMapping &M = G.M;
  const Kernel &K = *G.M.K;
  const Statement &S = *G.M.S;
  const Schedule &Sch = *G.M.Sch;
  BlockGrid Grid = blockGrid(M, /*WithLaunchIf=*/true);
  for (int A = 0; A < 3; ++A) {
    DK.GridIsl[A] = Grid.Isl[A];
    DK.GridC[A] = Grid.C[A];
  }
  DK.LaunchIf = Grid.LaunchIf;
  DK.IntDivision = G.IntDivision;
  DK.Half = G.Half;

  // Header comment.
  DK.Header.push_back(statementLine(K, S));
  DK.Header.push_back("schedule: " + Sch.str(K, S));
  DK.Header.push_back(DK.launchLine());
  // More than a kernel may declare statically: one dynamic array.
  if (DK.sharedBytes() > StaticSharedLimit && !DK.Shared.empty()) {
    const Buffer &Last = DK.Shared.back();
    DK.DynamicShared =
        DK.sharedOffsets().back() + dynamicSharedSlot(Last.bytes());
  }
  long Outputs = M.RegCount * outputCount(S);
  DK.Header.push_back("resources: " + std::to_string(DK.sharedBytes()) +
                      " bytes of shared memory" +
                      (DK.DynamicShared ? " (allocated at launch)" : "") +
                      ", " + std::to_string(Outputs) + " output" +
                      (Outputs == 1 ? "" : "s") +
                      " in registers per thread");
}

DeviceKernel emptyKernel(const Kernel &K, const Statement &S,
                         const Schedule &Sch) {
  DeviceKernel DK;
  DK.Name = kernelName(K, S);
  declareParams(DK, K);
  for (int A = 0; A < 3; ++A) {
    // No block: the isl text of the constant 0 on no parameters.
    DK.GridIsl[A] = "{ [(0)] }";
    DK.GridC[A] = "0";
  }
  DK.LaunchIf = "0";
  DK.Header.push_back(statementLine(K, S));
  DK.Header.push_back("schedule: " + Sch.str(K, S));
  DK.Header.push_back("launch: none, the statement's domain is empty");
  auto Note = std::make_unique<Node>(Node::Kind::Comment);
  Note->Text = "the statement's domain is empty: nothing to do";
  DK.Body.push_back(std::move(Note));
  return DK;
}

} // namespace loopy
