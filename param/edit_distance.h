// Edit distance and "did you mean" suggestions for misspelt keys and names.
//
// Example:
//
//   umbra::param::EditDistance("nhiden", "nhidden");          // 1
//   umbra::param::ClosestMatch("nhiden", {"nhidden", "lr"});  // "nhidden"
//   umbra::param::ClosestMatch("xyz", {"nhidden", "lr"});     // nullopt
#ifndef UMBRA_PARAM_EDIT_DISTANCE_H_
#define UMBRA_PARAM_EDIT_DISTANCE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace umbra {
namespace param {

// The number of single-byte insertions, deletions, substitutions and swaps of
// two neighbours that turn `a` into `b` (optimal string alignment distance).
std::size_t EditDistance(absl::string_view a, absl::string_view b);

// The candidate closest to `word`, compared without regard to ASCII case, if
// it is close enough to be a likely typo: at most max(1, size/3) edits away,
// where size is that of `word`, and not a complete rewrite. Ties go to the
// earlier candidate.
std::optional<std::string> ClosestMatch(
    absl::string_view word, const std::vector<std::string>& candidates);

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_EDIT_DISTANCE_H_
