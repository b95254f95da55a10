//===- LearnerTest.cpp - Unit tests of the learned search's model ---------===//
//
// The boosted trees fit and generalise a known function, deterministically;
// variantFeatures describes real variants; and on a synthetic space where
// the static ranking is wrong, the learned round finds the fastest variant
// with half the measurements that the families search needs.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/Learner.h"

#include "loopy/Planner/Planner.h"
#include "loopy/Tuner/Search.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace loopy;

namespace {

/// A step in x0, a bowl in x1, nothing in x2.
double target(const std::vector<double> &X) {
  return (X[0] > 0.5 ? 2.0 : 0.0) + (X[1] - 3) * (X[1] - 3) / 4;
}

std::vector<double> point(unsigned I) {
  // A deterministic spread over [0, 1] x [0, 6] x [0, 1].
  return {double((I * 37) % 101) / 100, double((I * 53) % 61) / 10,
          double((I * 11) % 17) / 16};
}

TEST(BoostedTrees, FitsAndGeneralises) {
  std::vector<std::vector<double>> X;
  std::vector<double> Y;
  for (unsigned I = 0; I < 400; ++I) {
    X.push_back(point(I));
    Y.push_back(target(X.back()));
  }
  BoostedTrees M;
  BoostedTrees::Options O;
  O.Trees = 200;
  M.fit(X, Y, {}, O);
  double Train = 0, Held = 0;
  for (unsigned I = 0; I < 400; ++I)
    Train = std::max(Train, std::fabs(M.predict(X[I]) - Y[I]));
  for (unsigned I = 1000; I < 1200; ++I)
    Held = std::max(Held, std::fabs(M.predict(point(I)) - target(point(I))));
  EXPECT_LT(Train, 0.3);
  EXPECT_LT(Held, 0.4);
  // A constant target needs no split: the model is its mean.
  BoostedTrees C;
  C.fit(X, std::vector<double>(X.size(), 1.5));
  EXPECT_DOUBLE_EQ(C.predict(point(7)), 1.5);
  EXPECT_EQ(C.trees(), 1u);
}

TEST(BoostedTrees, IsDeterministicAndWeighsRows) {
  std::vector<std::vector<double>> X;
  std::vector<double> Y;
  for (unsigned I = 0; I < 100; ++I) {
    X.push_back(point(I));
    Y.push_back(target(X.back()));
  }
  BoostedTrees A, B;
  A.fit(X, Y);
  B.fit(X, Y);
  for (unsigned I = 0; I < 50; ++I)
    EXPECT_EQ(A.predict(point(500 + I)), B.predict(point(500 + I)));
  // Two rows at one point with targets 0 and 1: the weights decide.
  BoostedTrees W;
  BoostedTrees::Options O;
  O.MinLeafWeight = 0;
  W.fit({{0.0}, {0.0}}, {0.0, 1.0}, {3.0, 1.0}, O);
  EXPECT_NEAR(W.predict({0.0}), 0.25, 1e-12);
  EXPECT_THROW(W.fit({{0.0}, {1.0, 2.0}}, {0.0, 1.0}), std::invalid_argument);
}

TEST(Learner, FeaturesAreStoredAsText) {
  std::vector<double> F(variantFeatureNames().size());
  for (size_t I = 0; I < F.size(); ++I)
    F[I] = 0.1 * double(I) - 1.0 / 3;
  std::string Text = encodeFeatures(F);
  auto Back = decodeFeatures(Text);
  ASSERT_TRUE(Back) << Text;
  ASSERT_EQ(Back->size(), F.size());
  for (size_t I = 0; I < F.size(); ++I)
    EXPECT_NEAR((*Back)[I], F[I], 1e-8);
  // Another list's features, a damaged text, one number short: none.
  EXPECT_FALSE(decodeFeatures("f0:" + Text.substr(3)));
  EXPECT_FALSE(decodeFeatures(Text + ",x"));
  EXPECT_FALSE(decodeFeatures(Text.substr(0, Text.rfind(','))));
  EXPECT_FALSE(decodeFeatures(""));
}

TEST(Learner, FeaturesDescribeVariants) {
  auto K = interptest::buildExample("matmul",
                                    {{"n", 256}, {"m", 256}, {"l", 256}});
  ASSERT_TRUE(K);
  std::string Error;
  std::vector<Variant> Vs = planKernel(*K, PlannerOptions(), Error);
  ASSERT_FALSE(Vs.empty()) << Error;
  double Best = Vs.front().Cost;
  for (const Variant &V : Vs)
    Best = std::min(Best, V.Cost);
  const std::vector<std::string> &Names = variantFeatureNames();
  auto At = [&](const char *Name) {
    return size_t(std::find(Names.begin(), Names.end(), Name) - Names.begin());
  };
  std::set<double> Staged, Threads;
  for (const Variant &V : Vs) {
    std::vector<double> F = variantFeatures(*K, V, Best, 132, 228 << 10);
    ASSERT_EQ(F.size(), Names.size()) << V.Name;
    for (double X : F)
      ASSERT_TRUE(std::isfinite(X)) << V.Name;
    EXPECT_GE(F[At("log2 static estimate / best")], 0) << V.Name;
    EXPECT_EQ(F[At("staged reads")], double(V.Schedules[0].Prefetch.size()))
        << V.Name;
    EXPECT_EQ(F[At("pipelined")], V.Schedules[0].Pipelined ? 1 : 0) << V.Name;
    EXPECT_EQ(F[At("log2 threads")],
              std::log2(double(V.Schedules[0].totalThreads())))
        << V.Name;
    EXPECT_EQ(F[At("blocks known")], 1) << V.Name;
    Staged.insert(F[At("staged reads")]);
    Threads.insert(F[At("log2 threads")]);
  }
  EXPECT_EQ(Staged, (std::set<double>{0, 1, 2}));
  EXPECT_GE(Threads.size(), 3u);
}

/// A synthetic space of 8 families of 30 variants, ranked family by family,
/// slowest family first (as SearchTest's): a variant's time is its
/// family's base time (8 ms down to 1 ms) divided by a factor that peaks at
/// its 12th tile size. Its features: the family's staged reads, the tile
/// size, and one that means nothing.
struct Synthetic {
  static constexpr size_t Families = 8, PerFamily = 30;
  std::vector<std::string> Ranked;
  std::vector<std::vector<double>> Features;
  Synthetic() {
    for (size_t F = 0; F < Families; ++F)
      for (size_t M = 0; M < PerFamily; ++M) {
        Ranked.push_back("i:g.x,t.x*" + std::to_string(32 << (M % 5)) +
                         ",ilp" + std::to_string(M / 5 + 1) + " prefetch:" +
                         std::string(1, char('a' + F)));
        Features.push_back({double(F), double(M), double((F * 7 + M * 3) % 5)});
      }
  }
  double time(size_t V) const {
    double Base = 8e-3 / double(1 + V / PerFamily);
    double M = double(V % PerFamily);
    return Base / (1 + 0.5 * std::exp(-(M - 11) * (M - 11) / 8));
  }
  std::vector<std::optional<double>> times(const std::vector<size_t> &Vs) const {
    std::vector<std::optional<double>> T;
    for (size_t V : Vs)
      T.push_back(time(V));
    return T;
  }
};

TEST(Learner, FindsWhatTheRankingMissesSooner) {
  Synthetic S;
  const size_t Best = 7 * Synthetic::PerFamily + 11;
  for (size_t V = 0; V < S.Ranked.size(); ++V)
    ASSERT_GE(S.time(V), S.time(Best));
  // The first round, as the families search runs it: half of 64.
  std::vector<size_t> Done = familiesFirst(S.Ranked, 64);
  ASSERT_EQ(Done.size(), 32u);
  ASSERT_EQ(std::count(Done.begin(), Done.end(), Best), 0);
  std::vector<std::optional<double>> Seconds = S.times(Done);
  // The learned round of 16 has the fastest variant, first. Its predicted
  // time is its family's without the peak (1.49 times its own): the peak
  // was measured in one family only, which the trees may as well take for
  // a trait of that family.
  std::vector<std::optional<double>> Predicted;
  std::vector<size_t> Next =
      learnedNext(S.Features, Done, Seconds, 16, {}, &Predicted);
  ASSERT_EQ(Next.size(), 16u);
  EXPECT_EQ(Next.front(), Best);
  ASSERT_EQ(Predicted.size(), 16u);
  ASSERT_TRUE(Predicted.front());
  EXPECT_GT(*Predicted.front() / S.time(Best), 1.0);
  EXPECT_LT(*Predicted.front() / S.time(Best), 1.6);
  // The families search's 16 do not: it takes the fastest families'
  // variants in rank order, which reach the peak only with 32.
  std::vector<size_t> Families = fastestFamiliesNext(S.Ranked, Done, Seconds, 16);
  EXPECT_EQ(std::count(Families.begin(), Families.end(), Best), 0);
  // Nothing measured twice, nothing measured already.
  std::set<size_t> Seen(Done.begin(), Done.end());
  for (size_t V : Next)
    EXPECT_TRUE(Seen.insert(V).second) << V;
}

TEST(Learner, FailuresCountAsSlowAndNoTimesKeepTheRanking) {
  Synthetic S;
  // Only failures: no model; the rest in rank order.
  std::vector<size_t> Done = {0, 1, 2};
  std::vector<std::optional<double>> None(3);
  std::vector<std::optional<double>> Predicted;
  EXPECT_EQ(learnedNext(S.Features, Done, None, 3, {}, &Predicted),
            (std::vector<size_t>{3, 4, 5}));
  EXPECT_EQ(Predicted, std::vector<std::optional<double>>(3));
  // A failed family is predicted slow: with family 1 timed and family 0
  // failed everywhere measured, family 0 comes after family 1.
  std::vector<size_t> Some;
  std::vector<std::optional<double>> T;
  for (size_t M = 0; M < 10; ++M) {
    Some.push_back(M);
    T.push_back(std::nullopt);
    Some.push_back(Synthetic::PerFamily + M);
    T.push_back(S.time(Synthetic::PerFamily + M));
  }
  std::vector<size_t> Next = learnedNext(
      std::vector<std::vector<double>>(S.Features.begin(),
                                       S.Features.begin() + 2 * Synthetic::PerFamily),
      Some, T, 5);
  for (size_t V : Next)
    EXPECT_GE(V, Synthetic::PerFamily) << "a variant of the failed family";
}

TEST(Learner, OtherSearchesTeach) {
  // This search measured only its family 0; another search's rows say
  // that the last family is fastest at tile size 11. The model carries
  // that over.
  Synthetic S;
  std::vector<size_t> Done;
  std::vector<std::optional<double>> T;
  for (size_t M = 0; M < 30; M += 6) {
    Done.push_back(M);
    T.push_back(S.time(M));
  }
  std::vector<std::pair<std::vector<double>, double>> Extra;
  for (size_t V = 0; V < S.Ranked.size(); ++V)
    Extra.push_back({S.Features[V], std::log(S.time(V) / S.time(7 * 30 + 11))});
  std::vector<size_t> Without = learnedNext(S.Features, Done, T, 1);
  std::vector<size_t> With = learnedNext(S.Features, Done, T, 1, Extra);
  ASSERT_EQ(With.size(), 1u);
  ASSERT_EQ(Without.size(), 1u);
  double Best = S.time(7 * Synthetic::PerFamily + 11);
  // Within 5% of the fastest (the peak's neighbour at worst), where this
  // search's rows alone point at its own family, 8 times slower.
  EXPECT_LE(S.time(With.front()), 1.05 * Best);
  EXPECT_GE(S.time(Without.front()), 7 * Best);
}

} // namespace
