// QuoteShort: user text quoted for an error message, never longer than a
// line: at most kQuoteChars characters, control characters escaped, and
// how long the whole text is when it was cut. A 10 MB key or path gives a
// message of a hundred bytes, not a 10 MB line.
//
// Example:
//
//   QuoteShort("a\tb");                  // 'a\tb'
//   QuoteShort(std::string(5000, 'x'));  // 'xxx...x'... (5000 bytes in all)
#ifndef UMBRA_PARAM_QUOTE_H_
#define UMBRA_PARAM_QUOTE_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace umbra {

// The most characters of the text that QuoteShort shows.
inline constexpr std::size_t kQuoteChars = 80;

// `text` in single quotes, tabs and line breaks as \t \r \n, other control
// bytes as \xNN; cut after kQuoteChars bytes, then followed by
// "... (N bytes in all)".
std::string QuoteShort(absl::string_view text);

}  // namespace umbra

#endif  // UMBRA_PARAM_QUOTE_H_
