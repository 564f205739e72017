#include "param/edit_distance.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace param {

std::size_t EditDistance(absl::string_view a, absl::string_view b) {
  // Three rows of the dynamic-programming table: two back, one back, current.
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

std::optional<std::string> ClosestMatch(
    absl::string_view word, const std::vector<std::string>& candidates) {
  const std::string lower_word = absl::AsciiStrToLower(word);
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance =
        EditDistance(lower_word, absl::AsciiStrToLower(candidate));
    // A word that shares nothing with the candidate is not a typo of it.
    const bool shares_something =
        distance < std::max(word.size(), candidate.size());
    if (shares_something && distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace param
}  // namespace umbra
