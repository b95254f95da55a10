//===- Compare.cpp - Checking a run's outputs against the reference -------===//
#include "loopy/Interp/Compare.h"

#include "ArrayChecker.h"

#include "loopy/Interp/Interpreter.h"
#include "loopy/Support/Isl.h"

#include <cfloat>
#include <cmath>

namespace loopy {

using namespace interp;

double tolerance(DType T, double R, bool Tf32) {
  if (!isFloat(T))
    return 0;
  double Terms = 1 + std::sqrt(std::max(R, 0.0));
  // Each operand rounded to 11 significant bits, a product's error at
  // most twice that.
  if (Tf32 && T == DType::F32)
    return 2 * 0x1p-11 + 16 * FLT_EPSILON * Terms;
  if (isHalf(T)) {
    // Computed in f32, rounded to the type once per operation, and once
    // at the end of a reduction.
    double Eps = T == DType::F16 ? 0x1p-10 : 0x1p-7;
    return 2 * Eps + 16 * FLT_EPSILON * Terms;
  }
  double Eps = T == DType::F32 ? FLT_EPSILON : DBL_EPSILON;
  return 16 * Eps * Terms;
}

std::string Comparison::message() const {
  std::string M;
  for (const ArrayComparison &A : Arrays)
    if (!A.Ok)
      M += (M.empty() ? "" : "\n") + A.Message;
  return M;
}

Comparison compareOutputs(const Kernel &K, const HostData &Reference,
                          const HostData &Candidate,
                          const CompareOptions &Opts) {
  return compareOutputs(K, Reference, Candidate, writtenMask(K, Reference),
                        Opts);
}

Comparison compareOutputs(const Kernel &K, const HostData &Reference,
                          const HostData &Candidate, const WrittenMask &Mask,
                          const CompareOptions &Opts) {
  std::map<std::string, double> Length;
  for (const Statement &S : K.Stmts) {
    double &L = Length[K.Args[S.Write.Arg].Name];
    L = std::max(L, reductionLength(S, Reference.Params));
  }
  Comparison C;
  for (const Argument &A : K.Args) {
    if (!A.isArray() || A.Mode == ArgMode::In)
      continue;
    C.Arrays.push_back(checkArray(A, Reference.array(A.Name),
                                  Candidate.array(A.Name), Mask.at(A.Name),
                                  Length[A.Name], Opts));
    C.Ok &= C.Arrays.back().Ok;
  }
  return C;
}

PointReference pointReference(const Kernel &K, const HostData &Inputs,
                              unsigned StmtIdx,
                              std::vector<std::vector<long>> Points) {
  PointReference R;
  R.Stmt = StmtIdx;
  R.Values = interpretPoints(K, Inputs, StmtIdx, Points);
  R.Offsets = writtenOffsets(K, Inputs, StmtIdx, Points);
  R.ReductionLength = reductionLength(K.Stmts.at(StmtIdx), Inputs.Params);
  R.Points = std::move(Points);
  return R;
}

ArrayComparison comparePoints(const Kernel &K, const PointReference &R,
                              const HostData &Candidate,
                              const CompareOptions &Opts) {
  const Statement &S = K.Stmts.at(R.Stmt);
  const Argument &Arg = K.Args[S.Write.Arg];
  std::vector<std::string> IndexNames;
  for (unsigned I : S.OutputIndices)
    IndexNames.push_back(K.IndexNames[I]);
  // The sampled elements, gathered into two buffers of one dimension.
  long N = R.Points.size();
  HostArray Ref(Arg.Type, {N}, {1}, N), Cand(Arg.Type, {N}, {1}, N);
  std::vector<bool> Written(N, false);
  std::vector<std::string> Names;
  const HostArray &Out = Candidate.array(Arg.Name);
  for (long I = 0; I < N; ++I) {
    Names.push_back("for " + describeValues(IndexNames, R.Points[I]));
    if (R.Offsets[I] < 0)
      continue;
    Written[I] = true;
    Ref.setDouble(I, R.Values[I]);
    Cand.setBits(I, Out.bits(R.Offsets[I]));
  }
  return checkArray(Arg, Ref, Cand, Written, R.ReductionLength, Opts, &Names);
}

ArrayComparison comparePoints(const Kernel &K, const HostData &Inputs,
                              const HostData &Candidate, unsigned StmtIdx,
                              const std::vector<std::vector<long>> &Points,
                              const CompareOptions &Opts) {
  return comparePoints(K, pointReference(K, Inputs, StmtIdx, Points),
                       Candidate, Opts);
}

} // namespace loopy
