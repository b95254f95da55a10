//===- Interpreter.cpp - The reference semantics of the Kernel IR ---------===//
#include "loopy/Interp/Interpreter.h"
#include "loopy/Support/Isl.h"

#include "CompiledStatement.h"
#include "Random.h"

#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace loopy {

using namespace interp;

void interpret(const Kernel &K, HostData &D) {
  for (unsigned I = 0; I < K.Stmts.size(); ++I) {
    CompiledStatement C(K, I, D);
    HostArray &Out = D.array(K.Args[C.statement().Write.Arg].Name);
    std::vector<long> Env = C.environment();
    long *E = Env.data();
    C.outputs().forEach(E, [&] { storeValue(Out, C.writeOffset(E), C.value(E)); });
  }
}

/// Whether \p P lies in \p S, a set without parameters.
static bool contains(const isl::set &S, const std::vector<long> &P) {
  isl_ctx *Ctx = S.ctx().get();
  isl::point Pt = take(Ctx, isl_point_zero(isl_set_get_space(S.get())));
  for (unsigned D = 0; D < P.size(); ++D)
    Pt = take(Ctx, isl_point_set_coordinate_val(
                       Pt.release(), isl_dim_set, D,
                       isl::val(S.ctx(), P[D]).release()));
  return isl::set(Pt).is_subset(S);
}

/// Calls \p F(Env) for each point of \p Points that lies in the output
/// set of \p C, with the output indices set in \p Env, and \p Outside()
/// for the others.
template <class Fn, class OutsideFn>
static void atPoints(const CompiledStatement &C,
                     const std::vector<std::vector<long>> &Points, Fn F,
                     OutsideFn Outside) {
  const std::vector<unsigned> &Out = C.statement().OutputIndices;
  std::vector<long> Env = C.environment();
  for (const std::vector<long> &P : Points) {
    if (P.size() != Out.size())
      throw std::invalid_argument(
          "output point with " + std::to_string(P.size()) +
          " values for a statement with " + std::to_string(Out.size()) +
          " output indices");
    if (!contains(C.outputSet(), P)) {
      Outside();
      continue;
    }
    for (unsigned I = 0; I < Out.size(); ++I)
      Env[Out[I]] = P[I];
    F(Env.data());
  }
}

std::vector<double>
interpretPoints(const Kernel &K, const HostData &D, unsigned StmtIdx,
                const std::vector<std::vector<long>> &OutputPoints) {
  CompiledStatement C(K, StmtIdx, D);
  DType T = K.Args[C.statement().Write.Arg].Type;
  std::vector<double> R;
  atPoints(
      C, OutputPoints, [&](long *E) { R.push_back(toDouble(C.value(E), T)); },
      [&] { R.push_back(std::numeric_limits<double>::quiet_NaN()); });
  return R;
}

std::vector<long>
writtenOffsets(const Kernel &K, const HostData &D, unsigned StmtIdx,
               const std::vector<std::vector<long>> &OutputPoints) {
  CompiledStatement C(K, StmtIdx, D);
  std::vector<long> R;
  atPoints(
      C, OutputPoints, [&](long *E) { R.push_back(C.writeOffset(E)); },
      [&] { R.push_back(-1); });
  return R;
}

std::vector<std::vector<long>> sampleOutputPoints(const Kernel &K,
                                                  const HostData &D,
                                                  unsigned StmtIdx,
                                                  size_t Count, uint64_t Seed) {
  CompiledStatement C(K, StmtIdx, D);
  const std::vector<unsigned> &Out = C.statement().OutputIndices;
  std::vector<long> Env = C.environment();
  long *E = Env.data();
  std::vector<std::vector<long>> R;
  auto Add = [&] {
    std::vector<long> P;
    for (unsigned I : Out)
      P.push_back(E[I]);
    R.push_back(std::move(P));
  };
  uint64_t Total = C.outputs().count(E);
  if (Total <= Count) {
    C.outputs().forEach(E, Add);
    return R;
  }
  // Count distinct ranks among Total, each set of them equally likely
  // (Floyd's algorithm), in increasing order: the points in iteration
  // order, found by rank without visiting the others.
  std::set<uint64_t> Ranks;
  SplitMix64 Rng(Seed);
  for (uint64_t J = Total - Count; J < Total; ++J)
    if (!Ranks.insert(Rng.below(J + 1)).second)
      Ranks.insert(J);
  for (uint64_t Rank : Ranks) {
    [[maybe_unused]] bool Found = C.outputs().nth(Rank, E);
    assert(Found && "a rank below the count names a point");
    Add();
  }
  return R;
}

} // namespace loopy
