// Checks that the system Abseil links and behaves: strings, formatting,
// StatusOr and a hash map, the pieces umbra's parameter registry and trainer
// rely on.
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace {

absl::StatusOr<int> ParsePositive(absl::string_view text) {
  int value = 0;
  if (!absl::SimpleAtoi(text, &value) || value <= 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("'%s' is not a positive integer", text));
  }
  return value;
}

TEST(AbslTest, StatusOrCarriesValueOrError) {
  absl::StatusOr<int> good = ParsePositive("42");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);

  absl::StatusOr<int> bad = ParsePositive("-3");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "'-3' is not a positive integer");
}

TEST(AbslTest, SplitAndCountWords) {
  absl::flat_hash_map<std::string, int> counts;
  for (absl::string_view word :
       absl::StrSplit("relu,conv,relu,fullc,relu", ',')) {
    ++counts[word];
  }
  EXPECT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts["relu"], 3);
  EXPECT_EQ(counts["conv"], 1);
  EXPECT_EQ(absl::StrFormat("%s=%.3f", "eta", 1.0 / 3), "eta=0.333");
}

}  // namespace
