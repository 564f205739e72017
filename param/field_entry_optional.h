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
#include "param/field_entry_base.h"

namespace umbra {
namespace param {

template <typename T>
class FieldEntry<std::optional<T>>
    : public FieldEntryBase<FieldEntry<std::optional<T>>, std::optional<T>> {
 public:
  using Parent = FieldEntryBase<FieldEntry<std::optional<T>>, std::optional<T>>;

  void Init(const std::string& key, void* head, std::optional<T>& ref) {
    Parent::Init(key, head, ref);
    inner_.Init(key, &inner_value_, inner_value_);
  }
  void set_struct_name(std::string name) override {
    inner_.set_struct_name(name);
    Parent::set_struct_name(std::move(name));
  }

  // Constraints on the value when there is one; see FieldEntryNumeric.
  FieldEntry& set_range(T begin, T end) {
    inner_.set_range(begin, end);
    return *this;
  }
  FieldEntry& set_lower_bound(T begin) {
    inner_.set_lower_bound(begin);
    return *this;
  }
  FieldEntry& set_upper_bound(T end) {
    inner_.set_upper_bound(end);
    return *this;
  }
  FieldEntry& allow_inf_nan() {
    inner_.allow_inf_nan();
    return *this;
  }
  // Enum names for std::optional<int>; "None" is reserved for no value.
  FieldEntry& add_enum(const std::string& name, int value) {
    static_assert(std::is_same_v<T, int>,
                  "add_enum() is for int and std::optional<int> fields only.");
    if (name == "None")
      this->ThrowError("enum name 'None' is reserved for no value");
    inner_.add_enum(name, value);
    return *this;
  }

  bool ParseText(absl::string_view text, std::optional<T>* out,
                 std::string* reason) const override {
    if (absl::StripAsciiWhitespace(text) == "None") {
      out->reset();
      return true;
    }
    T value{};
    if (!inner_.ParseText(text, &value, reason)) return false;
    *out = std::move(value);
    return true;
  }
  bool Validate(const std::optional<T>& value,
                std::string* reason) const override {
    return !value.has_value() || inner_.Validate(*value, reason);
  }
  void PrintValue(std::ostream& os,
                  const std::optional<T>& value) const override {
    if (value.has_value()) {
      inner_.PrintValue(os, *value);
    } else {
      os << "None";
    }
  }
  std::string Accepted() const override {
    return inner_.Accepted() + " or None";
  }

 private:
  // Parses, checks and prints the value inside; bound to inner_value_ only so
  // that its own Init has something to point at.
  FieldEntry<T> inner_;
  T inner_value_{};
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_OPTIONAL_H_
