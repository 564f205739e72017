#include "param/quote.h"

#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace umbra {

std::string QuoteShort(absl::string_view text) {
  const bool cut = text.size() > kQuoteChars;
  std::string quoted = "'";
  for (const char c : text.substr(0, kQuoteChars)) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\t') {
      quoted += "\\t";
    } else if (c == '\r') {
      quoted += "\\r";
    } else if (c == '\n') {
      quoted += "\\n";
    } else if (byte < 0x20 || byte == 0x7f) {
      quoted += absl::StrFormat("\\x%02x", byte);
    } else {
      quoted += c;
    }
  }
  quoted += "'";
  if (cut) absl::StrAppendFormat(&quoted, "... (%d bytes in all)", text.size());
  return quoted;
}

}  // namespace umbra
