//===- SearchTest.cpp - Unit tests of the tuner's choice of variants ------===//
//
// Families of schedule strings, the first round's spread and the second
// round's choice from measured times, and a synthetic space where the
// static ranking is wrong: the two rounds find its fastest variant within
// a budget that the ranking alone does not reach it in.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/Search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace loopy;

namespace {

TEST(Search, FamiliesLeaveOutSizes) {
  EXPECT_EQ(variantFamily("i:g.y,t.y*16,ilp4 j:g.x,t.x*16,ilp4s k:seq*8 "
                          "prefetch:a,b pipelined"),
            "i@y j@x/s k:tiled prefetch:a,b pipelined");
  // The same family at other sizes, and with the sequential loops in
  // another order.
  EXPECT_EQ(variantFamily("i:g.y,t.y*8,ilp8 j:g.x,t.x*32 k:seq*32 "
                          "prefetch:a,b pipelined"),
            variantFamily("j:g.x,t.x*64 i:g.y,t.y*2,ilp2 k:seq*16 "
                          "prefetch:a,b pipelined"));
  EXPECT_EQ(variantFamily("i:t.x*512"), "i:block");
  EXPECT_EQ(variantFamily("i:g.x*4096,t.x*256"), "i:split");
  EXPECT_EQ(variantFamily("k:seq i:g.x,t.x*32"), "i@x k:seq");
  // A reduction loop around the tiles is a family apart from one inside
  // them; two outputs sharing z are two outputs on z.
  EXPECT_EQ(variantFamily("c:g.z,t.z*1 a:g.z,t.z*1 d:g.x,t.x*16 e:seq,outer "
                          "f:seq*8 prefetch:x"),
            "a@z c@z d@x e:outer f:tiled prefetch:x");
  EXPECT_NE(variantFamily("d:g.x,t.x*16 e:seq,outer f:seq*8 prefetch:x"),
            variantFamily("d:g.x,t.x*16 e:seq f:seq*8 prefetch:x"));
  EXPECT_NE(variantFamily("i:g.y,t.y*8 j:g.x,t.x*32 k:seq*8"),
            variantFamily("i:g.x,t.x*8 j:g.y,t.y*32 k:seq*8"));
  EXPECT_EQ(variantFamily("merge(a,b) a_b:g.y,t.y*8 c:g.x,t.x*32 | "
                          "i:g.x,t.x*64,ilp2s"),
            "a_b@y c@x merge(a,b) | i@x/s");
  // How a thread's outputs on x lie is a family apart: adjacent (or one
  // output), strided, in strided runs; on y it is not.
  EXPECT_EQ(variantFamily("i:g.x,t.x*16,ilp2 k:seq*8"),
            variantFamily("i:g.x,t.x*32 k:seq*16"));
  EXPECT_EQ(variantFamily("i:g.x,t.x*16,ilp2s k:seq*8"), "i@x/s k:tiled");
  EXPECT_EQ(variantFamily("i:g.x,t.x*16,ilp8s4 k:seq*8"), "i@x/s4 k:tiled");
  EXPECT_EQ(variantFamily("i:g.y,t.y*16,ilp2 j:g.x,t.x*16"),
            variantFamily("i:g.y,t.y*4,ilp8 j:g.x,t.x*32"));
}

std::vector<std::string> names(const std::vector<std::string> &Families,
                               size_t PerFamily) {
  // PerFamily variants of each family, the families one after another:
  // "i:g.x,t.x*32,ilpN FAMILY".
  std::vector<std::string> R;
  for (const std::string &F : Families)
    for (size_t M = 0; M < PerFamily; ++M)
      R.push_back("i:g.x,t.x*" + std::to_string(32 << (M % 5)) + ",ilp" +
                  std::to_string(M / 5 + 1) + (F.empty() ? "" : " " + F));
  return R;
}

TEST(Search, FirstRoundTakesTheTopAndOneOfEachFamily) {
  std::vector<std::string> Ranked =
      names({"", "prefetch:a", "prefetch:b", "prefetch:a,b"}, 10);
  std::vector<size_t> First = familiesFirst(Ranked, 16);
  // Half the budget: the best-ranked 4, then the first of each of the three
  // other families, then the next by rank.
  EXPECT_EQ(First, (std::vector<size_t>{0, 1, 2, 3, 4, 10, 20, 30}));
  // A budget past the space takes it all, in rank order.
  EXPECT_EQ(familiesFirst(names({""}, 3), 64).size(), 3u);
}

TEST(Search, SecondRoundTakesTheFastestFamilies) {
  std::vector<std::string> Ranked =
      names({"", "prefetch:a", "prefetch:b"}, 6);
  std::vector<size_t> Done = {0, 1, 6, 12};
  // The unstaged family ran in 3 ms, staging a in 1 ms, staging b in
  // 1.2 ms; one of the unstaged failed.
  std::vector<std::optional<double>> Seconds = {3e-3, std::nullopt, 1e-3,
                                                1.2e-3};
  std::vector<size_t> Next = fastestFamiliesNext(Ranked, Done, Seconds, 6);
  // Staging a, then b, in turn, each in rank order; the slow family (3x
  // the fastest) only once those run out.
  EXPECT_EQ(Next, (std::vector<size_t>{7, 13, 8, 14, 9, 15}));
  std::vector<size_t> All = fastestFamiliesNext(Ranked, Done, Seconds, 14);
  EXPECT_EQ(All.size(), 14u);
  EXPECT_EQ(All.back(), 5u) << "the slow family last, by rank";
}

TEST(Search, TwoRoundsFindWhatTheRankingMisses) {
  // A synthetic space of 8 families of 30 variants, ranked family by
  // family, slowest family first: the true time of a variant is its
  // family's base time (8 ms down to 1 ms), divided by a factor that
  // peaks at the family's 12th variant.
  const size_t Families = 8, PerFamily = 30;
  std::vector<std::string> F;
  for (size_t I = 0; I < Families; ++I)
    F.push_back("prefetch:" + std::string(1, char('a' + I)));
  std::vector<std::string> Ranked = names(F, PerFamily);
  auto Time = [&](size_t V) {
    double Base = 8e-3 / double(1 + V / PerFamily);
    double M = double(V % PerFamily);
    return Base / (1 + 0.5 * std::exp(-(M - 11) * (M - 11) / 8));
  };
  size_t BestVariant = 0;
  for (size_t V = 1; V < Ranked.size(); ++V)
    if (Time(V) < Time(BestVariant))
      BestVariant = V;
  ASSERT_EQ(BestVariant, 7 * PerFamily + 11);

  const size_t Budget = 64;
  // The ranking alone: the first 64, all of the three slowest families.
  double Ranked64 = Time(0);
  for (size_t V = 0; V < Budget; ++V)
    Ranked64 = std::min(Ranked64, Time(V));
  // Two rounds.
  std::vector<size_t> Done = familiesFirst(Ranked, Budget);
  std::vector<std::optional<double>> Seconds;
  for (size_t V : Done)
    Seconds.push_back(Time(V));
  std::vector<size_t> Next =
      fastestFamiliesNext(Ranked, Done, Seconds, Budget - Done.size());
  Done.insert(Done.end(), Next.begin(), Next.end());
  ASSERT_EQ(Done.size(), Budget);
  EXPECT_NE(std::find(Done.begin(), Done.end(), BestVariant), Done.end());
  double Found = Time(Done[0]);
  for (size_t V : Done)
    Found = std::min(Found, Time(V));
  EXPECT_EQ(Found, Time(BestVariant));
  EXPECT_GT(Ranked64, 2.5 * Found);
}

} // namespace
