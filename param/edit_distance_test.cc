#include "param/edit_distance.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace umbra {
namespace param {
namespace {

TEST(EditDistanceTest, CountsEditsAndSwaps) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("nhidden", "nhidden"), 0u);
  EXPECT_EQ(EditDistance("nhiden", "nhidden"), 1u);
  EXPECT_EQ(EditDistance("nhidden", "nhiddne"), 1u);  // one swap
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("eta", "wd"), 3u);
}

TEST(EditDistanceTest, ClosestMatchOnlyForLikelyTypos) {
  const std::vector<std::string> keys = {"kernel_size", "nchannel", "nhidden",
                                         "lr", "eta"};
  EXPECT_EQ(ClosestMatch("nhiden", keys), "nhidden");
  EXPECT_EQ(ClosestMatch("NHIDDEN", keys), "nhidden");
  EXPECT_EQ(ClosestMatch("kernelsize", keys), "kernel_size");
  EXPECT_EQ(ClosestMatch("nchanel", keys), "nchannel");
  EXPECT_EQ(ClosestMatch("eat", keys), "eta");
  EXPECT_EQ(ClosestMatch("l", keys), "lr");
  EXPECT_EQ(ClosestMatch("momentum", keys), std::nullopt);
  EXPECT_EQ(ClosestMatch("x", keys), std::nullopt);
  EXPECT_EQ(ClosestMatch("anything", {}), std::nullopt);
  // Ties go to the earlier candidate.
  EXPECT_EQ(ClosestMatch("ab", {"ac", "ad"}), "ac");
}

}  // namespace
}  // namespace param
}  // namespace umbra
