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
                                  absl::string_view value) const {
  std::string message =
      struct_name_.empty()
          ? absl::StrCat("key '", key_, "': ", detail)
          : absl::StrCat(struct_name_, ": key '", key_, "': ", detail);
  throw ParamError(message, struct_name_, key_, std::string(value));
}

void FieldAccessEntry::ThrowBadValue(absl::string_view accepted,
                                     absl::string_view value,
                                     absl::string_view reason) const {
  std::string detail = absl::StrCat("expected ", accepted, ", got ",
                                    internal::QuoteForMessage(value));
  if (!reason.empty()) absl::StrAppend(&detail, " (", reason, ")");
  ThrowError(detail, value);
}

}  // namespace param
}  // namespace umbra
