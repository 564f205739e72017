#include "param/edit_distance.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace umbra {
namespace param {
namespace {

// The full table, as EditDistance was computed before it was banded.
std::size_t ReferenceDistance(absl::string_view a, absl::string_view b) {
  const std::size_t width = b.size() + 1;
  std::vector<std::size_t> two_back(width), one_back(width), current(width);
  for (std::size_t j = 0; j < width; ++j) one_back[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j < width; ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({one_back[j] + 1, current[j - 1] + 1,
                             one_back[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], two_back[j - 2] + 1);
      }
    }
    std::swap(two_back, one_back);
    std::swap(one_back, current);
  }
  return one_back[b.size()];
}

// ClosestMatch as it was: every candidate's full distance.
std::optional<std::string> ReferenceClosestMatch(
    absl::string_view word, const std::vector<std::string>& candidates) {
  const std::string lower_word = absl::AsciiStrToLower(word);
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance =
        ReferenceDistance(lower_word, absl::AsciiStrToLower(candidate));
    const bool shares_something =
        distance < std::max(word.size(), candidate.size());
    if (shares_something && distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

// A short word over a small alphabet, so that random pairs are often close,
// tie and hold swaps.
std::string RandomWord(std::mt19937& rng, std::size_t max_size) {
  std::string word(rng() % (max_size + 1), ' ');
  for (char& c : word) c = "abcAB_"[rng() % 6];
  return word;
}

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

TEST(EditDistanceTest, AtMostIsExactWithinTheBoundAndBoundPlusOneBeyond) {
  EXPECT_EQ(EditDistanceAtMost("kitten", "sitting", 3), 3u);
  EXPECT_EQ(EditDistanceAtMost("kitten", "sitting", 2), 3u);
  EXPECT_EQ(EditDistanceAtMost("nhidden", "nhiddne", 1), 1u);
  EXPECT_EQ(EditDistanceAtMost("", "", 0), 0u);
  EXPECT_EQ(EditDistanceAtMost("abc", "abd", 0), 1u);
  EXPECT_EQ(EditDistanceAtMost("abc", "", static_cast<std::size_t>(-2)), 3u);
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    const std::string a = RandomWord(rng, 9);
    const std::string b = RandomWord(rng, 9);
    const std::size_t bound = rng() % 8;
    const std::size_t full = ReferenceDistance(a, b);
    ASSERT_EQ(EditDistance(a, b), full) << a << " / " << b;
    ASSERT_EQ(EditDistanceAtMost(a, b, bound), std::min(full, bound + 1))
        << a << " / " << b << " at most " << bound;
  }
}

TEST(EditDistanceTest, ClosestMatchChoosesAsTheFullSearchDid) {
  std::mt19937 rng(11);
  for (int round = 0; round < 5000; ++round) {
    std::vector<std::string> candidates(rng() % 8);
    for (std::string& candidate : candidates) candidate = RandomWord(rng, 9);
    const std::string word = RandomWord(rng, 9);
    ASSERT_EQ(ClosestMatch(word, candidates),
              ReferenceClosestMatch(word, candidates))
        << word;
  }
}

TEST(EditDistanceTest, LongWordsAreNotCompared) {
  // A word of 10 MB is 10 MB away from a short key: it costs one length
  // comparison per candidate, and gets no suggestion.
  const std::string huge(10'000'000, 'k');
  EXPECT_EQ(EditDistanceAtMost(huge, "kk", 5), 6u);
  EXPECT_EQ(ClosestMatch(huge, {"kernel_size", "k", "kk"}), std::nullopt);
  EXPECT_TRUE(
      ClosestMatches(huge, {"kernel_size", std::string(300, 'k')}, 5).empty());
  // Words up to kMaxSuggestedWordBytes are compared; longer ones are not,
  // however close.
  const std::string longest(kMaxSuggestedWordBytes, 'a');
  EXPECT_EQ(ClosestMatch(longest, {longest + "b"}), longest + "b");
  EXPECT_EQ(ClosestMatch(longest + "a", {longest + "ab"}), std::nullopt);
  EXPECT_EQ(MaxTypoEdits(0), 1u);
  EXPECT_EQ(MaxTypoEdits(6), 2u);
  EXPECT_EQ(MaxTypoEdits(kMaxSuggestedWordBytes), 42u);
}

TEST(EditDistanceTest, ClosestMatchesClosestFirstThenInOrder) {
  // Six within the 2 edits "abcdef" allows; distances in comments.
  const std::vector<std::string> keys = {
      "abcdxy",   // 2
      "abcdeg",   // 1
      "abcdef",   // 0
      "abdcef",   // 1 (a swap)
      "lr",       // too far
      "ABCDE",    // 1
      "abcdefg",  // 1
  };
  EXPECT_EQ(ClosestMatches("abcdef", keys, 5),
            (std::vector<std::string>{"abcdef", "abcdeg", "abdcef", "ABCDE",
                                      "abcdefg"}));
  EXPECT_EQ(ClosestMatches("abcdef", keys, 2),
            (std::vector<std::string>{"abcdef", "abcdeg"}));
  EXPECT_EQ(ClosestMatches("abcdef", keys, 0), std::vector<std::string>{});
  EXPECT_EQ(ClosestMatches("momentum", keys, 5), std::vector<std::string>{});
  std::mt19937 rng(13);
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> candidates(rng() % 10);
    for (std::string& candidate : candidates) candidate = RandomWord(rng, 7);
    const std::string word = RandomWord(rng, 7);
    const std::vector<std::string> five = ClosestMatches(word, candidates, 5);
    ASSERT_LE(five.size(), 5u);
    const std::optional<std::string> best = ClosestMatch(word, candidates);
    ASSERT_EQ(five.empty(), !best.has_value()) << word;
    if (best) {
      ASSERT_EQ(five.front(), *best) << word;
    }
  }
}

TEST(EditDistanceTest, SuggestionListsAllOfAFewNames) {
  EXPECT_EQ(
      UnknownNameSuggestion("sqare", {"circle", "square"}, "Known shapes"),
      "; did you mean 'square'? Known shapes: circle, square");
  EXPECT_EQ(
      UnknownNameSuggestion("hexagon", {"circle", "square"}, "Known shapes"),
      ". Known shapes: circle, square");
  EXPECT_EQ(UnknownNameSuggestion("x", {}, "Valid keys"),
            ". Valid keys: (none)");
}

TEST(EditDistanceTest, SuggestionListsAtMostFiveOfMany) {
  std::vector<std::string> keys;
  for (const char* key :
       {"nhidden", "num_hidden", "lr", "eta", "momentum", "wd", "hidden",
        "nhiddens", "nhid", "init_sigma", "hiden", "nhidd"}) {
    keys.push_back(key);
  }
  // Six are within 2 edits of "nhiden": nhidden and hiden (1 each) first,
  // then hidden, nhiddens, nhid (2 each) in order, and nhidd (2, the last)
  // left out.
  EXPECT_EQ(UnknownNameSuggestion("nhiden", keys, "Valid keys"),
            "; did you mean 'nhidden'? Valid keys (5 closest of 12): nhidden, "
            "hiden, hidden, nhiddens, nhid; see tools/config_reference.md");
  EXPECT_EQ(UnknownNameSuggestion("momentun", keys, "Valid keys"),
            "; did you mean 'momentum'? Valid keys: 12 in all; see "
            "tools/config_reference.md");
  EXPECT_EQ(UnknownNameSuggestion("colour", keys, "Valid keys"),
            ". Valid keys: 12 in all; see "
            "tools/config_reference.md");
  EXPECT_EQ(
      UnknownNameSuggestion(std::string(10'000'000, 'x'), keys, "Valid keys"),
      ". Valid keys: 12 in all; see "
      "tools/config_reference.md");
  // Names that are not keys say where the rest are.
  EXPECT_EQ(UnknownNameSuggestion("nhiden", keys, "Nodes", "the netconfig"),
            "; did you mean 'nhidden'? Nodes (5 closest of 12): nhidden, "
            "hiden, hidden, nhiddens, nhid; see the netconfig");
  EXPECT_EQ(NameList("colour", keys, "Nodes", "the netconfig"),
            "Nodes: 12 in all; see the netconfig");
}

}  // namespace
}  // namespace param
}  // namespace umbra
