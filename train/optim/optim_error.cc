#include "train/optim/optim_error.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {
namespace optim {

OptimError::OptimError(const std::string& message, std::string key)
    : std::invalid_argument(message), key_(std::move(key)) {}

OptimError WrapParamError(absl::string_view subject, const ParamError& error) {
  return OptimError(absl::StrCat(subject, ": ", error.what()), error.key());
}

namespace {

std::string Suggestion(absl::string_view word,
                       const std::vector<std::string>& candidates) {
  std::optional<std::string> closest = param::ClosestMatch(word, candidates);
  return closest ? absl::StrCat("; did you mean '", *closest, "'?") : ";";
}

}  // namespace

OptimError UnknownKeyError(absl::string_view subject, absl::string_view key,
                           const std::vector<std::string>& valid_keys) {
  return OptimError(
      absl::StrCat(subject, ": unknown key ", QuoteShort(key),
                   Suggestion(key, valid_keys), " ",
                   param::NameList(key, valid_keys, "Valid keys")),
      std::string(key));
}

OptimError UnknownNameError(absl::string_view kind, absl::string_view name,
                            const std::vector<std::string>& known_names) {
  return OptimError(absl::StrCat("unknown ", kind, " '", name, "'",
                                 Suggestion(name, known_names), " Known ", kind,
                                 "s: ", absl::StrJoin(known_names, ", ")));
}

}  // namespace optim
}  // namespace umbra
