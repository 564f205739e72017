#include "param/type_registry.h"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "param/edit_distance.h"

namespace umbra {

std::string UnknownNameMessage(absl::string_view kind,
                               absl::string_view known_as,
                               absl::string_view library,
                               absl::string_view name,
                               const std::vector<std::string>& known) {
  if (known.empty()) {
    return absl::StrCat("unknown ", kind, " '", name, "': this program has no ",
                        kind, "s registered (link ", library, ")");
  }
  const std::optional<std::string> closest = param::ClosestMatch(name, known);
  return absl::StrCat("unknown ", kind, " '", name, "'",
                      closest ? absl::StrCat("; did you mean '", *closest, "'?")
                              : std::string("."),
                      " Known ", known_as, ": ", absl::StrJoin(known, ", "));
}

namespace internal {

void AbortRegistration(absl::string_view kind, absl::string_view type,
                       absl::string_view problem) {
  const std::string message =
      absl::StrCat("umbra: ", kind, " '", type, "': ", problem, "\n");
  std::fputs(message.c_str(), stderr);
  std::abort();
}

}  // namespace internal
}  // namespace umbra
