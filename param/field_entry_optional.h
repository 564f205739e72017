// FieldEntry<std::optional<T>>: a field that may hold no value, written "None".
//
// Any other text is parsed and checked as a T field would be; the range, enum
// and inf/nan setters of FieldEntry<T> apply to the value when there is one.
//
// Example:
//
//   std::optional<int> seed;
//   std::optional<int> pad_mode;
//   ...
//   UMBRA_DECLARE_FIELD(seed).set_default(std::nullopt).set_lower_bound(0);
//   UMBRA_DECLARE_FIELD(pad_mode).add_enum("same", 0).add_enum("valid", 1)
//       .set_default(std::nullopt);
//   // "seed=None" -> nullopt, "seed=7" -> 7, "seed=-1" -> ParamError
#ifndef UMBRA_PARAM_FIELD_ENTRY_OPTIONAL_H_
#define UMBRA_PARAM_FIELD_ENTRY_OPTIONAL_H_

#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "param/field_entry.h"
#include "param/field_entry_wrapper.h"

namespace umbra {
namespace param {

template <typename T>
class FieldEntry<std::optional<T>>
    : public FieldEntryWrapper<FieldEntry<std::optional<T>>, std::optional<T>,
                               T> {
 public:
  // Enum names for std::optional<int>; "None" is reserved for no value.
  FieldEntry& add_enum(const std::string& name, int value) {
    static_assert(std::is_same_v<T, int>,
                  "add_enum() is for int and std::optional<int> fields only.");
    if (name == "None")
      this->ThrowError("enum name 'None' is reserved for no value");
    this->inner_.add_enum(name, value);
    return *this;
  }

  bool ParseText(absl::string_view text, std::optional<T>* out,
                 std::string* reason) const override {
    if (absl::StripAsciiWhitespace(text) == "None") {
      out->reset();
      return true;
    }
    T value{};
    if (!this->inner_.ParseText(text, &value, reason)) return false;
    *out = std::move(value);
    return true;
  }
  bool Validate(const std::optional<T>& value,
                std::string* reason) const override {
    return !value.has_value() || this->inner_.Validate(*value, reason);
  }
  void PrintValue(std::ostream& os,
                  const std::optional<T>& value) const override {
    if (value.has_value()) {
      this->inner_.PrintValue(os, *value);
    } else {
      os << "None";
    }
  }
  std::string Accepted() const override {
    return this->inner_.Accepted() + " or None";
  }
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_OPTIONAL_H_
