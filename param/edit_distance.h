// Edit distance and "did you mean" suggestions for misspelt keys and names.
//
// The search is cheap whatever the word: a candidate whose length differs
// from the word's by more than the edits allowed is never compared, a
// comparison stops once no alignment can stay within them, and a word longer
// than kMaxSuggestedWordBytes gets no suggestion at all. A 10 MB key is
// refused as fast as a short one.
//
// Example:
//
//   umbra::param::EditDistance("nhiden", "nhidden");          // 1
//   umbra::param::ClosestMatch("nhiden", {"nhidden", "lr"});  // "nhidden"
//   umbra::param::ClosestMatch("xyz", {"nhidden", "lr"});     // nullopt
//   // "; did you mean 'nhidden'? Valid keys: lr, nhidden"
//   umbra::param::UnknownNameSuggestion("nhiden", {"lr", "nhidden"},
//                                       "Valid keys");
#ifndef UMBRA_PARAM_EDIT_DISTANCE_H_
#define UMBRA_PARAM_EDIT_DISTANCE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace umbra {
namespace param {

// Words longer than this get no suggestion: no key or name comes close to
// it, and it bounds what a search costs.
inline constexpr std::size_t kMaxSuggestedWordBytes = 128;

// The most names an unknown-name message lists.
inline constexpr std::size_t kMaxListedNames = 5;

// Where the full lists of keys and types are, for messages that cut them.
inline constexpr char kConfigReference[] = "tools/config_reference.md";

// The number of single-byte insertions, deletions, substitutions and swaps of
// two neighbours that turn `a` into `b` (optimal string alignment distance).
// Costs O(|a| * |b|).
std::size_t EditDistance(absl::string_view a, absl::string_view b);

// EditDistance(a, b) when that is at most `max_distance`, and
// max_distance + 1 otherwise. Costs O(1) when the lengths differ by more than
// `max_distance`, and O(min(|a|, |b|) * max_distance) at most otherwise.
std::size_t EditDistanceAtMost(absl::string_view a, absl::string_view b,
                               std::size_t max_distance);

// The most edits a likely typo of a word of `word_size` bytes has:
// max(1, word_size / 3).
std::size_t MaxTypoEdits(std::size_t word_size);

// The candidate closest to `word`, compared without regard to ASCII case, if
// it is close enough to be a likely typo: at most MaxTypoEdits(size) edits
// away, where size is that of `word`, and not a complete rewrite. Ties go to
// the earlier candidate. nullopt for a word longer than
// kMaxSuggestedWordBytes.
std::optional<std::string> ClosestMatch(
    absl::string_view word, const std::vector<std::string>& candidates);

// Up to `max_count` candidates that ClosestMatch would accept, closest
// first, ties in the candidates' order; the first is ClosestMatch's.
std::vector<std::string> ClosestMatches(
    absl::string_view word, const std::vector<std::string>& candidates,
    std::size_t max_count);

// The end of a message about the unknown name `word`, to follow e.g.
// "unknown key 'nhiden'", where `label` introduces the names (`known`, in
// the order to list them):
//   "; did you mean 'nhidden'? Valid keys: a, b, c"   (at most 5 names)
//   ". Valid keys: a, b, c"                           (none close)
//   ". Valid keys: (none)"                            (no names)
// and when there are more than kMaxListedNames, at most that many of the
// closest (ClosestMatches), or only how many there are when at most one is
// close:
//   "; did you mean 'nhidden'? Valid keys (2 closest of 12): nhidden,
//    num_hidden; see tools/config_reference.md"
//   "; did you mean 'nhidden'? Valid keys: 12 in all; see
//    tools/config_reference.md"
//   ". Valid keys: 12 in all; see tools/config_reference.md"
// Costs what ClosestMatches costs; `word` is not in the text. `full_list`
// says where all the names are (NameList).
std::string UnknownNameSuggestion(
    absl::string_view word, const std::vector<std::string>& known,
    absl::string_view label, absl::string_view full_list = kConfigReference);

// The names part of UnknownNameSuggestion alone ("Valid keys: a, b",
// "Valid keys (2 closest of 12): ...; see tools/config_reference.md", ...),
// for a message that makes its own hint. `full_list` says where all the
// names are when the text lists only some ("the netconfig", ...).
std::string NameList(absl::string_view word,
                     const std::vector<std::string>& known,
                     absl::string_view label,
                     absl::string_view full_list = kConfigReference);

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_EDIT_DISTANCE_H_
