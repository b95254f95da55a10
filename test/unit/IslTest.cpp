//===- IslTest.cpp - Unit tests of the isl helpers ------------------------===//
#include "loopy/Support/Isl.h"

#include <gtest/gtest.h>

using namespace loopy;

namespace {

TEST(Isl, BoundedDimensions) {
  IslContext Ctx;
  isl::set Tri(Ctx.get(), "[n] -> { [i, j] : 0 <= j <= i < n }");
  EXPECT_TRUE(isDimBounded(Tri, 0));
  EXPECT_TRUE(isDimBounded(Tri, 1));
  isl::set Half(Ctx.get(), "[n] -> { [i, j] : 0 <= i < n and j >= 0 }");
  EXPECT_TRUE(isDimBounded(Half, 0));
  EXPECT_FALSE(isDimBounded(Half, 1));
}

TEST(Isl, SmallestPointMinimisesParametersFirst) {
  IslContext Ctx;
  isl::set S(Ctx.get(), "[n] -> { A[i] : i >= n and n >= 3 and i <= 100 }");
  isl::point P = smallestPoint(S);
  EXPECT_EQ(describeParams(S, P), "n = 3");
  EXPECT_EQ(coordinate(P, isl_dim_set, 0), 3);
  // The witness stays in the set's own space.
  EXPECT_TRUE(isl::manage(isl_set_from_point(P.copy())).is_subset(S));
}

// A failed C call raises isl's own error through take(), never a null object
// or the bindings' "NULL input" that hides it; past the quota, that error is
// the quota, which the driver reports to the user.
TEST(Isl, TakeRaisesTheErrorOfTheFailedCall) {
  IslContext Ctx;
  isl::set S(Ctx.get(), "{ [i] : 0 <= i < 10 }");
  try {
    (void)take(Ctx.raw(), isl_set_project_out(S.copy(), isl_dim_set, 3, 1));
    ADD_FAILURE() << "no exception";
  } catch (isl::exception_invalid &E) {
    EXPECT_EQ(std::string(E.what()).find("NULL input"), std::string::npos)
        << E.what();
  }
  isl::set Hard(Ctx.get(), "[n] -> { [i, j, k] : 0 <= i, j, k < n and "
                           "i + j + k = n and 3i + 5j - 7k >= 2 }");
  IslMaxOperationsGuard Guard(Ctx.raw(), 1);
  EXPECT_THROW((void)take(Ctx.raw(), isl_set_lexmin(Hard.copy())),
               isl::exception_quota);
}

TEST(Isl, QuotaGuardStopsRunawayWork) {
  IslContext Ctx;
  IslMaxOperationsGuard Guard(Ctx.raw(), 1);
  bool Quota = false;
  try {
    isl::set S(Ctx.get(), "[n] -> { [i, j, k] : 0 <= i, j, k < n and "
                          "i + j + k = n and 3i + 5j - 7k >= 2 }");
    (void)S.lexmin().coalesce().is_empty();
  } catch (isl::exception_quota &) {
    Quota = true;
  } catch (isl::exception &) {
    Quota = Guard.hasQuotaExceeded();
  }
  EXPECT_TRUE(Quota);
}

TEST(Isl, ParseErrorsAreReturnedNotPrinted) {
  IslContext Ctx;
  std::string Error;
  EXPECT_FALSE(parseSet(Ctx.get(), "{ [i] : 0 <= i < }", Error));
  EXPECT_FALSE(Error.empty());
  EXPECT_TRUE(parseSet(Ctx.get(), "[n] -> { [i] : 0 <= i < n }", Error));
}

} // namespace
