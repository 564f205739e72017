#include "param/edit_distance.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace param {

std::size_t EditDistance(absl::string_view a, absl::string_view b) {
  return EditDistanceAtMost(a, b, std::max(a.size(), b.size()));
}

std::size_t EditDistanceAtMost(absl::string_view a, absl::string_view b,
                               std::size_t max_distance) {
  const std::size_t gap =
      a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > max_distance) return max_distance + 1;
  // The distance is never more than the longer length, so a larger bound
  // changes nothing (and max_distance + 1 cannot overflow below).
  const std::size_t bound =
      std::min(max_distance, std::max(a.size(), b.size()));
  const std::size_t over = bound + 1;
  // Rows of the table D[i][j], the distance from a[0, i) to b[0, j), capped
  // at `over`. Only the band |i - j| <= bound is computed: a cell outside it
  // is at least |i - j| > bound, and reads as `over`, which is all a capped
  // table needs. Three rows: two back (for swaps), one back, current.
  const std::size_t width = b.size() + 1;
  std::vector<std::size_t> two_back(width, over), one_back(width, over),
      current(width, over);
  for (std::size_t j = 0; j <= std::min(b.size(), bound); ++j) one_back[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t first = i > bound ? i - bound : 1;
    const std::size_t last = std::min(b.size(), i + bound);
    // The cell left of the band: column 0 (i deletions), or outside it.
    current[first - 1] = first == 1 ? std::min(i, over) : over;
    std::size_t row_min = current[first - 1];
    for (std::size_t j = first; j <= last; ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t cell = std::min({one_back[j] + 1, current[j - 1] + 1,
                                   one_back[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cell = std::min(cell, two_back[j - 2] + 1);
      }
      current[j] = std::min(cell, over);
      row_min = std::min(row_min, current[j]);
    }
    // No row has a smaller minimum than the one before it, so once a row is
    // all over the bound, so is the answer.
    if (row_min >= over) return max_distance + 1;
    std::swap(two_back, one_back);
    std::swap(one_back, current);
  }
  return one_back[b.size()] > bound ? max_distance + 1 : one_back[b.size()];
}

std::size_t MaxTypoEdits(std::size_t word_size) {
  return std::max<std::size_t>(1, word_size / 3);
}

std::vector<std::string> ClosestMatches(
    absl::string_view word, const std::vector<std::string>& candidates,
    std::size_t max_count) {
  if (max_count == 0 || word.size() > kMaxSuggestedWordBytes) return {};
  const std::string lower_word = absl::AsciiStrToLower(word);
  const std::size_t limit = MaxTypoEdits(word.size());
  // (distance, index) of the closest so far, sorted: by distance, then by
  // index, since a later candidate only gets in when strictly closer.
  std::vector<std::pair<std::size_t, std::size_t>> found;
  std::string lower_candidate;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    const std::string& candidate = candidates[index];
    // The most edits that still gets the candidate in.
    std::size_t allowed = limit;
    if (found.size() == max_count) {
      if (found.back().first == 0) break;
      allowed = found.back().first - 1;
    }
    const std::size_t gap = word.size() > candidate.size()
                                ? word.size() - candidate.size()
                                : candidate.size() - word.size();
    if (gap > allowed) continue;
    lower_candidate = absl::AsciiStrToLower(candidate);
    const std::size_t distance =
        EditDistanceAtMost(lower_word, lower_candidate, allowed);
    if (distance > allowed) continue;
    // A word that shares nothing with the candidate is not a typo of it.
    if (distance >= std::max(word.size(), candidate.size())) continue;
    const std::pair<std::size_t, std::size_t> entry(distance, index);
    found.insert(std::upper_bound(found.begin(), found.end(), entry), entry);
    if (found.size() > max_count) found.pop_back();
  }
  std::vector<std::string> matches;
  matches.reserve(found.size());
  for (const auto& [distance, index] : found) {
    matches.push_back(candidates[index]);
  }
  return matches;
}

std::optional<std::string> ClosestMatch(
    absl::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> matches = ClosestMatches(word, candidates, 1);
  if (matches.empty()) return std::nullopt;
  return std::move(matches.front());
}

std::string UnknownNameSuggestion(absl::string_view word,
                                  const std::vector<std::string>& known,
                                  absl::string_view label,
                                  absl::string_view full_list) {
  const std::optional<std::string> closest = ClosestMatch(word, known);
  return absl::StrCat(closest
                          ? absl::StrCat("; did you mean '", *closest, "'? ")
                          : std::string(". "),
                      NameList(word, known, label, full_list));
}

std::string NameList(absl::string_view word,
                     const std::vector<std::string>& known,
                     absl::string_view label, absl::string_view full_list) {
  const std::vector<std::string> close =
      ClosestMatches(word, known, kMaxListedNames);
  std::string text;
  if (known.size() <= kMaxListedNames) {
    absl::StrAppend(&text, label, ": ",
                    known.empty() ? "(none)" : absl::StrJoin(known, ", "));
  } else if (close.size() <= 1) {
    // Only the count: a close name is already in the caller's hint.
    absl::StrAppend(&text, label, ": ", known.size(), " in all; see ",
                    full_list);
  } else {
    absl::StrAppend(&text, label, " (", close.size(), " closest of ",
                    known.size(), "): ", absl::StrJoin(close, ", "), "; see ",
                    full_list);
  }
  return text;
}

}  // namespace param
}  // namespace umbra
