//===- Learner.cpp - A model of variants' run times, fit while tuning ----===//
#include "loopy/Tuner/Learner.h"

#include "loopy/IR/Kernel.h"
#include "loopy/Planner/Planner.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

namespace loopy {

//===----------------------------------------------------------------------===//
// Boosted trees
//===----------------------------------------------------------------------===//

double BoostedTrees::Tree::predict(const std::vector<double> &X) const {
  int I = 0;
  while (Nodes[I].Feature >= 0)
    I = X[Nodes[I].Feature] <= Nodes[I].Threshold ? Nodes[I].Left
                                                   : Nodes[I].Right;
  return Nodes[I].Value;
}

double BoostedTrees::predict(const std::vector<double> &X) const {
  double P = Base;
  for (const Tree &T : Trees)
    P += Rate * T.predict(X);
  return P;
}

void BoostedTrees::fit(const std::vector<std::vector<double>> &X,
                       const std::vector<double> &Y,
                       const std::vector<double> &WIn, const Options &O) {
  size_t N = X.size();
  if (Y.size() != N || (!WIn.empty() && WIn.size() != N))
    throw std::invalid_argument("BoostedTrees::fit: rows, targets and "
                                "weights differ in number");
  Trees.clear();
  Rate = O.Rate;
  Base = 0;
  if (N == 0)
    return;
  size_t F = X[0].size();
  for (const std::vector<double> &Row : X)
    if (Row.size() != F)
      throw std::invalid_argument("BoostedTrees::fit: rows of different "
                                  "lengths");
  std::vector<double> W = WIn.empty() ? std::vector<double>(N, 1.0) : WIn;
  double WSum = 0, WYSum = 0;
  for (size_t I = 0; I < N; ++I) {
    WSum += W[I];
    WYSum += W[I] * Y[I];
  }
  if (WSum <= 0)
    return;
  Base = WYSum / WSum;
  std::vector<double> Residual(N);
  for (size_t I = 0; I < N; ++I)
    Residual[I] = Y[I] - Base;

  // Each feature's rows in increasing order of its value, once: every
  // level of every tree scans these orders.
  std::vector<std::vector<unsigned>> Order(F);
  for (size_t J = 0; J < F; ++J) {
    Order[J].resize(N);
    std::iota(Order[J].begin(), Order[J].end(), 0u);
    std::stable_sort(Order[J].begin(), Order[J].end(),
                     [&](unsigned A, unsigned B) { return X[A][J] < X[B][J]; });
  }

  std::vector<int> NodeOf(N);
  for (unsigned T = 0; T < O.Trees; ++T) {
    Tree Tr;
    Tr.Nodes.emplace_back();
    std::fill(NodeOf.begin(), NodeOf.end(), 0);
    // The nodes of the level being split.
    std::vector<int> Level = {0};
    for (unsigned D = 0; D < O.Depth && !Level.empty(); ++D) {
      // Totals per node of this level.
      struct Stats {
        double W = 0, S = 0;
      };
      std::vector<Stats> Total(Tr.Nodes.size());
      for (size_t I = 0; I < N; ++I)
        if (NodeOf[I] >= 0) {
          Total[NodeOf[I]].W += W[I];
          Total[NodeOf[I]].S += W[I] * Residual[I];
        }
      struct Best {
        double Gain = 1e-12;
        int Feature = -1;
        double Threshold = 0;
      };
      std::vector<Best> Chosen(Tr.Nodes.size());
      for (size_t J = 0; J < F; ++J) {
        struct Run {
          double W = 0, S = 0, Last = 0;
          bool Any = false;
        };
        std::vector<Run> Left(Tr.Nodes.size());
        for (unsigned I : Order[J]) {
          int Nd = NodeOf[I];
          if (Nd < 0)
            continue;
          Run &L = Left[Nd];
          double V = X[I][J];
          if (L.Any && V > L.Last) {
            const Stats &Tot = Total[Nd];
            double WR = Tot.W - L.W, SR = Tot.S - L.S;
            if (L.W >= O.MinLeafWeight && WR >= O.MinLeafWeight) {
              double Gain = L.S * L.S / L.W + SR * SR / WR -
                            Tot.S * Tot.S / Tot.W;
              if (Gain > Chosen[Nd].Gain)
                Chosen[Nd] = {Gain, static_cast<int>(J), (L.Last + V) / 2};
            }
          }
          L.W += W[I];
          L.S += W[I] * Residual[I];
          L.Last = V;
          L.Any = true;
        }
      }
      std::vector<int> Next;
      for (int Nd : Level) {
        if (Chosen[Nd].Feature < 0)
          continue;
        int Left = static_cast<int>(Tr.Nodes.size());
        Tr.Nodes.emplace_back();
        Tr.Nodes.emplace_back();
        Node &P = Tr.Nodes[Nd];
        P.Feature = Chosen[Nd].Feature;
        P.Threshold = Chosen[Nd].Threshold;
        P.Left = Left;
        P.Right = Left + 1;
        Next.push_back(Left);
        Next.push_back(Left + 1);
      }
      for (size_t I = 0; I < N; ++I) {
        int Nd = NodeOf[I];
        if (Nd >= 0 && Tr.Nodes[Nd].Feature >= 0)
          NodeOf[I] = X[I][Tr.Nodes[Nd].Feature] <= Tr.Nodes[Nd].Threshold
                          ? Tr.Nodes[Nd].Left
                          : Tr.Nodes[Nd].Right;
      }
      Level = std::move(Next);
    }
    // Leaves: the weighted mean residual of their rows.
    std::vector<double> LW(Tr.Nodes.size()), LS(Tr.Nodes.size());
    for (size_t I = 0; I < N; ++I) {
      LW[NodeOf[I]] += W[I];
      LS[NodeOf[I]] += W[I] * Residual[I];
    }
    for (size_t Nd = 0; Nd < Tr.Nodes.size(); ++Nd)
      if (Tr.Nodes[Nd].Feature < 0 && LW[Nd] > 0)
        Tr.Nodes[Nd].Value = LS[Nd] / LW[Nd];
    for (size_t I = 0; I < N; ++I)
      Residual[I] -= Rate * Tr.Nodes[NodeOf[I]].Value;
    bool Split = Tr.Nodes.size() > 1;
    Trees.push_back(std::move(Tr));
    if (!Split)
      break; // nothing left to explain: more trees would be the same
  }
}

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

const std::vector<std::string> &variantFeatureNames() {
  static const std::vector<std::string> Names = {
      "log2 static estimate / best", "kernel launches", "merged view",
      "fused statements", "log2 threads", "log2 threads x", "log2 threads y",
      "log2 register outputs", "shared KiB", "log2 blocks / SMs",
      "blocks known", "log2 blocks per SM", "staged reads", "pipelined",
      "sequential reduction", "tiled reduction", "block reduction",
      "split reduction", "log2 reduction tile or threads",
      "strided outputs", "log2 outputs per thread on x",
      "log2 outputs per thread on y"};
  return Names;
}

std::vector<double> variantFeatures(const Kernel &K, const Variant &V,
                                    double BestCost, int Multiprocessors,
                                    size_t SharedPerMultiprocessor) {
  (void)K;
  auto Log2 = [](double X) { return X > 0 ? std::log2(X) : 0.0; };
  std::vector<double> Out;
  Out.push_back(BestCost > 0 && V.Cost > 0 ? Log2(V.Cost / BestCost) : 0);
  size_t Launches = 0;
  size_t Dominant = 0;
  for (size_t I = 0; I < V.Schedules.size(); ++I) {
    bool Empty = I < V.Stats.size() && V.Stats[I].Empty;
    Launches += !Empty;
    if (I < V.Stats.size() && V.Stats[I].Cost > V.Stats[Dominant].Cost)
      Dominant = I;
  }
  Out.push_back(static_cast<double>(Launches));
  Out.push_back(V.Merge.empty() ? 0 : 1);
  Out.push_back(V.Fuse.empty() ? 0 : 1);
  if (V.Schedules.empty()) {
    Out.resize(variantFeatureNames().size(), 0.0);
    return Out;
  }
  // The shape of the statement that costs most.
  const Schedule &S = V.Schedules[Dominant];
  Figures Fig = Dominant < V.Stats.size() ? V.Stats[Dominant] : Figures();
  long Threads = std::max(1L, S.totalThreads());
  Out.push_back(Log2(static_cast<double>(Threads)));
  Out.push_back(Log2(static_cast<double>(S.threads(Axis::X))));
  Out.push_back(Log2(static_cast<double>(S.threads(Axis::Y))));
  Out.push_back(Log2(static_cast<double>(std::max(1L, S.registerOutputs()))));
  Out.push_back(static_cast<double>(Fig.SharedBytes) / 1024);
  double Blocks = 1;
  bool Known = true;
  for (long B : Fig.GridBlocks) {
    if (B < 0)
      Known = false;
    else
      Blocks *= static_cast<double>(std::max(1L, B));
  }
  Out.push_back(Known && Multiprocessors > 0 ? Log2(Blocks / Multiprocessors)
                                             : 0);
  Out.push_back(Known ? 1 : 0);
  // Blocks one multiprocessor can hold by threads and shared memory (2048
  // threads and 32 blocks on every GPU since sm_50).
  double PerSM = std::min(32.0, 2048.0 / static_cast<double>(Threads));
  if (Fig.SharedBytes > 0 && SharedPerMultiprocessor > 0)
    PerSM = std::min(PerSM, std::floor(double(SharedPerMultiprocessor) /
                                       double(Fig.SharedBytes)));
  Out.push_back(Log2(std::max(1.0, PerSM)));
  Out.push_back(static_cast<double>(S.Prefetch.size()));
  Out.push_back(S.Pipelined ? 1 : 0);
  bool Seq = false, Tiled = false, BlockRed = false, Split = false;
  double ReductionWidth = 1;
  bool Strided = false;
  long IlpX = 1, IlpY = 1;
  for (const IndexMap &M : S.Maps) {
    switch (M.K) {
    case IndexMap::Kind::Seq:
      Seq = true;
      break;
    case IndexMap::Kind::Tiled:
      Tiled = true;
      ReductionWidth = std::max(ReductionWidth, double(M.Tile));
      break;
    case IndexMap::Kind::Block:
      (M.Chunk > 0 ? Split : BlockRed) = true;
      ReductionWidth = std::max(ReductionWidth, double(M.Threads));
      break;
    case IndexMap::Kind::Grid:
      Strided = Strided || M.run() < M.Ilp;
      if (M.Ax == Axis::X)
        IlpX = std::max(IlpX, M.Ilp);
      else if (M.Ax == Axis::Y)
        IlpY = std::max(IlpY, M.Ilp);
      break;
    }
  }
  Out.push_back(Seq ? 1 : 0);
  Out.push_back(Tiled ? 1 : 0);
  Out.push_back(BlockRed ? 1 : 0);
  Out.push_back(Split ? 1 : 0);
  Out.push_back(Log2(ReductionWidth));
  Out.push_back(Strided ? 1 : 0);
  Out.push_back(Log2(static_cast<double>(IlpX)));
  Out.push_back(Log2(static_cast<double>(IlpY)));
  assert(Out.size() == variantFeatureNames().size());
  return Out;
}

namespace {
/// Names the list of features variantFeatures gives; a new list needs a
/// new tag, so that older rows are left out rather than misread.
constexpr const char *FeaturesTag = "f1:";
} // namespace

std::string encodeFeatures(const std::vector<double> &Features) {
  std::string Out = FeaturesTag;
  char Buf[32];
  for (size_t I = 0; I < Features.size(); ++I) {
    std::snprintf(Buf, sizeof Buf, "%s%.9g", I ? "," : "", Features[I]);
    Out += Buf;
  }
  return Out;
}

std::optional<std::vector<double>> decodeFeatures(const std::string &Text) {
  std::string Tag = FeaturesTag;
  if (Text.compare(0, Tag.size(), Tag) != 0)
    return std::nullopt;
  std::vector<double> Out;
  const char *P = Text.c_str() + Tag.size();
  const char *End = Text.c_str() + Text.size();
  while (P < End) {
    char *Next = nullptr;
    double V = std::strtod(P, &Next);
    if (Next == P || !std::isfinite(V))
      return std::nullopt;
    Out.push_back(V);
    P = Next;
    if (P < End && *P++ != ',')
      return std::nullopt;
  }
  if (Out.size() != variantFeatureNames().size())
    return std::nullopt;
  return Out;
}

//===----------------------------------------------------------------------===//
// The next round
//===----------------------------------------------------------------------===//

std::vector<size_t>
learnedNext(const std::vector<std::vector<double>> &Features,
            const std::vector<size_t> &Done,
            const std::vector<std::optional<double>> &Seconds, size_t Count,
            const std::vector<std::pair<std::vector<double>, double>> &Extra,
            std::vector<std::optional<double>> *PredictedSeconds) {
  std::vector<char> Ran(Features.size(), 0);
  for (size_t D : Done)
    if (D < Ran.size())
      Ran[D] = 1;
  double Fastest = 0, Slowest = 0;
  for (const std::optional<double> &S : Seconds)
    if (S && *S > 0) {
      Fastest = Fastest == 0 ? *S : std::min(Fastest, *S);
      Slowest = std::max(Slowest, *S);
    }
  std::vector<std::vector<double>> X;
  std::vector<double> Y, W;
  if (Fastest > 0)
    for (size_t I = 0; I < Done.size() && I < Seconds.size(); ++I) {
      if (Done[I] >= Features.size())
        continue;
      X.push_back(Features[Done[I]]);
      double S = Seconds[I] && *Seconds[I] > 0 ? *Seconds[I] : 3 * Slowest;
      Y.push_back(std::log(S / Fastest));
      W.push_back(1);
    }
  size_t Own = X.size();
  if (Own && !Extra.empty()) {
    double Each = static_cast<double>(Own) / static_cast<double>(Extra.size());
    for (const auto &[F, LogRatio] : Extra)
      if (F.size() == Features.front().size()) {
        X.push_back(F);
        Y.push_back(LogRatio);
        W.push_back(Each);
      }
  }
  std::vector<double> Predicted(Features.size(), 0);
  if (Own) {
    BoostedTrees Model;
    BoostedTrees::Options O;
    // A family may have one measurement: a leaf of one row must be allowed.
    O.MinLeafWeight = 1;
    Model.fit(X, Y, W, O);
    for (size_t I = 0; I < Features.size(); ++I)
      if (!Ran[I])
        Predicted[I] = Model.predict(Features[I]);
  }
  std::vector<size_t> Left;
  for (size_t I = 0; I < Features.size(); ++I)
    if (!Ran[I])
      Left.push_back(I);
  std::stable_sort(Left.begin(), Left.end(), [&](size_t A, size_t B) {
    return Predicted[A] < Predicted[B];
  });
  if (Left.size() > Count)
    Left.resize(Count);
  if (PredictedSeconds) {
    PredictedSeconds->clear();
    for (size_t V : Left)
      PredictedSeconds->push_back(
          Own ? std::optional<double>(Fastest * std::exp(Predicted[V]))
              : std::nullopt);
  }
  return Left;
}

} // namespace loopy
