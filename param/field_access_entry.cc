#include "param/field_access_entry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "param/param_error.h"
#include "param/quote.h"

namespace umbra {
namespace param {
void FieldAccessEntry::ThrowError(absl::string_view detail,
                                  absl::string_view value,
                                  absl::string_view given_key) const {
  std::string key = absl::StrCat("key '", key_, "'");
  if (!given_key.empty() && given_key != key_) {
    absl::StrAppend(&key, " (given as '", given_key, "')");
  }
  std::string message = struct_name_.empty() ? absl::StrCat(key, ": ", detail)
                                             : absl::StrCat(struct_name_, ": ",
                                                            key, ": ", detail);
  throw ParamError(message, struct_name_, key_, std::string(value));
}

void FieldAccessEntry::ThrowBadValue(absl::string_view accepted,
                                     absl::string_view value,
                                     absl::string_view reason,
                                     absl::string_view given_key) const {
  std::string detail =
      absl::StrCat("expected ", accepted, ", got ", QuoteShort(value));
  if (!reason.empty()) absl::StrAppend(&detail, " (", reason, ")");
  ThrowError(detail, value, given_key);
}

}  // namespace param
}  // namespace umbra
