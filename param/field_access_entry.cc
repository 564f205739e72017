#include "param/field_access_entry.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "param/param_error.h"

namespace umbra {
namespace param {
namespace {

// Values longer than this are cut short in messages.
constexpr std::size_t kMaxQuotedBytes = 80;

}  // namespace

namespace internal {

std::string QuoteForMessage(absl::string_view value) {
  if (value.size() <= kMaxQuotedBytes) {
    return absl::StrCat("'", absl::CHexEscape(value), "'");
  }
  return absl::StrCat("'", absl::CHexEscape(value.substr(0, kMaxQuotedBytes)),
                      "...' (", value.size(), " bytes)");
}

}  // namespace internal

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
  std::string detail = absl::StrCat("expected ", accepted, ", got ",
                                    internal::QuoteForMessage(value));
  if (!reason.empty()) absl::StrAppend(&detail, " (", reason, ")");
  ThrowError(detail, value, given_key);
}

}  // namespace param
}  // namespace umbra
