#include "param/type_registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {

std::string UnknownNameMessage(absl::string_view kind,
                               absl::string_view known_as,
                               absl::string_view library,
                               absl::string_view name,
                               const std::vector<std::string>& known) {
  if (known.empty()) {
    return absl::StrCat("unknown ", kind, " ", QuoteShort(name),
                        ": this program has no ", kind, "s registered (link ",
                        library, ")");
  }
  return absl::StrCat("unknown ", kind, " ", QuoteShort(name),
                      param::UnknownNameSuggestion(
                          name, known, absl::StrCat("Known ", known_as)));
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
