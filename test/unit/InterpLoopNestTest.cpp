//===- InterpLoopNestTest.cpp - Loops from isl visit exactly the set ------===//
//
// The interpreter's loop nests, compiled from isl's AST, must visit every
// point of a set once, in lexicographic order, and nothing else. Each set
// here is written in isl notation and compared with isl's own enumeration
// of its points.
//
//===----------------------------------------------------------------------===//
#include "Interp/Instantiate.h"
#include "Interp/LoopNest.h"
#include "loopy/Support/Isl.h"

#include <isl/point.h>
#include <isl/set.h>

#include <gtest/gtest.h>

using namespace loopy;
using namespace loopy::interp;

namespace {

using Points = std::vector<std::vector<long>>;

/// The points of the parameter-free set \p S, by isl, in lexicographic order.
Points islPoints(const isl::set &S) {
  Points R;
  unsigned N = isl_set_dim(S.get(), isl_dim_set);
  S.foreach_point([&](isl::point P) {
    R.push_back(coordinates(P, isl_dim_set, 0, N));
  });
  std::sort(R.begin(), R.end());
  return R;
}

/// A LoopNest of \p S: its parameters the first slots of \p Slots, in
/// order, its dimensions the slots \p Dims.
LoopNest nestOf(const isl::set &S, SlotMap &Slots, std::vector<unsigned> &Dims) {
  unsigned NP = isl_set_dim(S.get(), isl_dim_param);
  for (unsigned P = 0; P < NP; ++P)
    Slots.add(isl_set_get_dim_name(S.get(), isl_dim_param, P));
  unsigned N = isl_set_dim(S.get(), isl_dim_set);
  for (unsigned D = 0; D < N; ++D)
    Dims.push_back(Slots.add("x" + std::to_string(D)));
  return LoopNest(S, Dims, Slots);
}

/// The points a LoopNest of \p S visits with its parameters (each named
/// after its position in \p Params) set to \p Params.
Points nestPoints(const isl::set &S, const std::vector<long> &Params) {
  SlotMap Slots;
  std::vector<unsigned> Dims;
  LoopNest L = nestOf(S, Slots, Dims);
  std::vector<long> Env(Slots.size(), 0);
  std::copy(Params.begin(), Params.end(), Env.begin());
  Points R;
  L.forEach(Env.data(), [&] {
    std::vector<long> P;
    for (unsigned D : Dims)
      P.push_back(Env[D]);
    R.push_back(P);
  });
  return R;
}

class InterpLoopNest : public ::testing::Test {
protected:
  IslContext Isl;
  isl::set set(const char *Text) { return isl::set(Isl.get(), Text); }
};

/// Sets of every shape: boxes, triangles, strides, guards, unions, a
/// point and the empty set.
const char *Shapes[] = {
    "{ [i, j] : 0 <= i < 6 and 2 <= j < 9 }",
    "{ [i, j] : 0 <= j <= i < 7 }",
    "{ [i] : 0 <= i < 30 and exists (e : i = 4e + 1) }",
    "{ [i, j] : 0 <= j <= i < 10 and (j < 2 or 7 <= j) }",
    "{ [i, j] : 0 <= i < 10 and j = 9 - i }",
    "{ [i, j] : 0 <= i < 10 and 0 <= j < 10 and (i + j) mod 3 = 0 }",
    "{ [i, j, k] : 0 <= i < 5 and i <= j < 2i + 3 and 0 <= k <= j - i "
    "and k mod 2 = 0 }",
    "{ [i] : -7 <= i <= 7 and (i < -5 or i > 5 or i = 0) }",
    "{ [i, j] : 0 <= i < 4 and 0 <= j < 4 and i + j <= 2; "
    "[i, j] : 6 <= i < 8 and 0 <= j < 2 }",
    "{ [] }",
    "{ [i] : 1 = 0 }",
};

TEST_F(InterpLoopNest, VisitsExactlyThePointsInOrder) {
  for (const char *Text : Shapes) {
    isl::set S = set(Text);
    Points Want = islPoints(S);
    EXPECT_EQ(nestPoints(S, {}), Want) << Text;
    EXPECT_EQ(countPoints(S), Want.size()) << Text;
  }
}

TEST_F(InterpLoopNest, ParametersAreEnvironmentVariables) {
  isl::set S = set("[p, q] -> { [i, j] : p <= i < 2p + 3 and i mod 2 = 1 "
                   "and q - i <= j <= q }");
  for (long P = -3; P <= 4; ++P)
    for (long Q : {-2L, 0L, 5L}) {
      Points Want = islPoints(instantiate(S, {{"p", P}, {"q", Q}}));
      EXPECT_EQ(nestPoints(S, {P, Q}), Want) << "p = " << P << ", q = " << Q;
    }
}

TEST_F(InterpLoopNest, CountsWithoutVisiting) {
  // Boxes, strides and triangles collapse to trip counts; the numbers are
  // far beyond what visiting could count.
  EXPECT_EQ(countPoints(set("{ [i, j, k] : 0 <= i, j, k < 100000 }")),
            1000000000000000ull);
  EXPECT_EQ(countPoints(set("{ [i, j] : 0 <= i < 10 and 3 <= j < 1000000000 "
                            "and j mod 4 = 1 }")),
            10 * 249999999ull);
  EXPECT_EQ(countPoints(set("{ [i, j] : 0 <= j <= i < 100000 }")),
            100000ull * 100001 / 2);
  // A union: 100 - 21 points with i + j > 12, then a 2 x 5 box.
  EXPECT_EQ(countPoints(set("{ [i, j] : 0 <= i < 10 and 0 <= j < 10 and "
                            "i + j <= 12; [i, j] : 20 <= i < 22 and "
                            "0 <= j < 5 }")),
            89u);
}

// nth finds each point by its rank in the visiting order, in sets whose
// loops are uniform (boxes), not (triangles, guards, strides) or several
// (unions), and no point past the last.
TEST_F(InterpLoopNest, FindsThePointOfEachRank) {
  for (const char *Text : Shapes) {
    isl::set S = set(Text);
    Points Want = islPoints(S);
    SlotMap Slots;
    std::vector<unsigned> Dims;
    LoopNest L = nestOf(S, Slots, Dims);
    std::vector<long> Env(Slots.size(), 0);
    for (size_t R = 0; R < Want.size(); ++R) {
      ASSERT_TRUE(L.nth(R, Env.data())) << Text << " rank " << R;
      std::vector<long> P;
      for (unsigned D : Dims)
        P.push_back(Env[D]);
      EXPECT_EQ(P, Want[R]) << Text << " rank " << R;
    }
    EXPECT_FALSE(L.nth(Want.size(), Env.data())) << Text;
  }
  // Far into a box too large to visit.
  isl::set Big = set("{ [i, j, k] : 0 <= i, j, k < 100000 }");
  SlotMap Slots;
  std::vector<unsigned> Dims = {Slots.add("i"), Slots.add("j"), Slots.add("k")};
  LoopNest L(Big, Dims, Slots);
  std::vector<long> Env(Slots.size(), 0);
  ASSERT_TRUE(L.nth(123456789012345ull, Env.data()));
  EXPECT_EQ(Env[Dims[0]], 12345);
  EXPECT_EQ(Env[Dims[1]], 67890);
  EXPECT_EQ(Env[Dims[2]], 12345);
}

TEST_F(InterpLoopNest, FloorDivisionOfNegativeParameters) {
  // isl's bounds here divide expressions of p with floord.
  const char *Sets[] = {
      "[p] -> { [i] : 0 <= i < 20 and (i - p) mod 3 = 0 }",
      "[p] -> { [i] : -10 <= i < 10 and exists (e : 3e <= p + i <= 3e + 1) }",
  };
  for (const char *Text : Sets)
    for (long P = -7; P <= 7; ++P) {
      isl::set S = set(Text);
      EXPECT_EQ(nestPoints(S, {P}), islPoints(instantiate(S, {{"p", P}})))
          << Text << " at p = " << P;
    }
}

TEST_F(InterpLoopNest, SliceSetBindsAndProjects) {
  isl::set S = set("{ [i, j, k] : 0 <= i < 4 and 0 <= j <= i and 0 <= k < j }");
  isl::set Slice = sliceSet(S, {"i", "j", "k"}, {0}, {2});
  EXPECT_TRUE(Slice.is_equal(
      set("[i] -> { [k] : 0 <= i < 4 and 0 <= k < i }")))
      << Slice;
  EXPECT_EQ(nestPoints(Slice, {3}), (Points{{0}, {1}, {2}}));
  EXPECT_EQ(nestPoints(Slice, {0}), Points{});
}

} // namespace
