// FieldEntry<std::vector<T>>: a tuple or shape of numbers, for T an integer or
// floating-point type.
//
// Accepted: "1,28,28", "(1,28,28)", "[1, 28, 28]", "(3,)" (one element),
// "()" and "" (no elements). Printed as "(1,28,28)", "(3,)" and "()". Range
// setters apply to every element.
//
// Example:
//
//   std::vector<int> kernel_size;
//   ...
//   UMBRA_DECLARE_FIELD(kernel_size).set_lower_bound(1)
//       .set_default(std::vector<int>{3, 3});
//   // "kernel_size=0,3" -> ParamError:
//   // ConvParam: key 'kernel_size': expected tuple of int in [1, inf),
//   //     got '0,3' (element 1 is '0')
#ifndef UMBRA_PARAM_FIELD_ENTRY_TUPLE_H_
#define UMBRA_PARAM_FIELD_ENTRY_TUPLE_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/field_entry.h"
#include "param/field_entry_wrapper.h"
#include "param/quote.h"

namespace umbra {
namespace param {
namespace internal {

// Splits "(a, b, c)" / "[a,b,c]" / "a,b,c" into its elements, each without
// surrounding whitespace. Returns false for brackets anywhere but around the
// whole tuple, or an empty element ("1,,2"); one trailing comma is allowed
// ("(3,)").
bool SplitTuple(absl::string_view text,
                std::vector<absl::string_view>* elements);

}  // namespace internal

template <typename T>
class FieldEntry<std::vector<T>>
    : public FieldEntryWrapper<FieldEntry<std::vector<T>>, std::vector<T>, T> {
  static_assert(
      std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
      "Tuple fields (std::vector<T>) hold integers or floating-point numbers.");

 public:
  bool ParseText(absl::string_view text, std::vector<T>* out,
                 std::string* reason) const override {
    std::vector<absl::string_view> elements;
    if (!internal::SplitTuple(text, &elements)) return false;
    std::vector<T> values;
    values.reserve(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
      T value{};
      std::string element_reason;
      if (!this->inner_.ParseText(elements[i], &value, &element_reason) ||
          !this->inner_.Validate(value, &element_reason)) {
        *reason = "element " + std::to_string(i + 1) + " is " +
                  QuoteShort(elements[i]);
        if (!element_reason.empty()) *reason += ": " + element_reason;
        return false;
      }
      values.push_back(value);
    }
    *out = std::move(values);
    return true;
  }
  bool Validate(const std::vector<T>& value,
                std::string* reason) const override {
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string element_reason;
      if (!this->inner_.Validate(value[i], &element_reason)) {
        *reason = "element " + std::to_string(i + 1) + " is " +
                  QuoteShort(internal::FormatNumber(value[i]));
        if (!element_reason.empty()) *reason += ": " + element_reason;
        return false;
      }
    }
    return true;
  }
  void PrintValue(std::ostream& os,
                  const std::vector<T>& value) const override {
    os << '(';
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i != 0) os << ',';
      this->inner_.PrintValue(os, value[i]);
    }
    if (value.size() == 1) os << ',';
    os << ')';
  }
  std::string Accepted() const override {
    return "tuple of " + this->inner_.Accepted();
  }
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_TUPLE_H_
