#include "param/number_text.h"

#include <charconv>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace param {
namespace internal {

absl::string_view StripNumberText(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.size() >= 2 && text[0] == '+' && text[1] != '+' && text[1] != '-') {
    text.remove_prefix(1);
  }
  return text;
}

bool ParseWideInteger(absl::string_view text, bool is_signed,
                      long long* out_signed, unsigned long long* out_unsigned,
                      bool* out_of_range) {
  const char* const begin = text.data();
  const char* const end = text.data() + text.size();
  std::from_chars_result result;
  if (is_signed) {
    result = std::from_chars(begin, end, *out_signed);
  } else {
    result = std::from_chars(begin, end, *out_unsigned);
  }
  if (result.ptr != end) return false;
  if (result.ec == std::errc::result_out_of_range) {
    *out_of_range = true;
    return false;
  }
  return result.ec == std::errc();
}

}  // namespace internal
}  // namespace param
}  // namespace umbra
