#include "param/field_entry_tuple.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace param {
namespace internal {

bool SplitTuple(absl::string_view text,
                std::vector<absl::string_view>* elements) {
  elements->clear();
  text = absl::StripAsciiWhitespace(text);
  if (!text.empty() && (text.front() == '(' || text.front() == '[')) {
    const char close = text.front() == '(' ? ')' : ']';
    if (text.size() < 2 || text.back() != close) return false;
    text = absl::StripAsciiWhitespace(text.substr(1, text.size() - 2));
  }
  if (text.empty()) return true;
  // Brackets only around the whole tuple.
  if (text.find_first_of("()[]") != absl::string_view::npos) return false;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    elements->push_back(absl::StripAsciiWhitespace(piece));
  }
  // One trailing comma, as in "(3,)".
  if (elements->size() > 1 && elements->back().empty()) elements->pop_back();
  for (absl::string_view element : *elements) {
    if (element.empty()) return false;
  }
  return true;
}

}  // namespace internal
}  // namespace param
}  // namespace umbra
