// FieldEntry<T>: how a field of type T is parsed, checked, printed and
// documented. Chosen by UMBRA_DECLARE_FIELD from the member's type.
//
//   integers (all widths), float, double   FieldEntryNumeric: ranges
//   int                                    also enums: add_enum(name, value)
//   bool                                   true/false/1/0 in any case
//   std::string                            the text as given
//   std::optional<T>                       "None" or a T
//                                          (field_entry_optional.h)
//   std::vector<T>, T numeric              "1,28,28" or "(1,28,28)"
//                                          (field_entry_tuple.h)
//   any other type                         its operator>> and operator<<
//
// A user type is read with `is >> value`; the whole text must be consumed
// (trailing whitespace aside), and an exception other than ParamError thrown by
// the operator counts as a bad value. Name it with UMBRA_DECLARE_TYPE_NAME.
//
// Example:
//
//   UMBRA_DECLARE_FIELD(pool_type)
//       .add_enum("max", kMaxPool).add_enum("avg", kAvgPool)
//       .set_default(kMaxPool);
//   UMBRA_DECLARE_FIELD(no_bias).set_default(false);
//   UMBRA_DECLARE_FIELD(model_dir).set_default("models");
#ifndef UMBRA_PARAM_FIELD_ENTRY_H_
#define UMBRA_PARAM_FIELD_ENTRY_H_

#include <map>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/field_entry_base.h"
#include "param/field_entry_numeric.h"

namespace umbra {
namespace param {
namespace internal {

// "true", "false", "1" or "0" in any case, around ASCII whitespace.
bool ParseBool(absl::string_view text, bool* out);

// Enum names of an int field, in declaration order.
class EnumNames {
 public:
  // Throws ParamError (through `owner`'s message prefix) when `name` or
  // `value` is already declared.
  void Add(const std::string& name, int value, const std::string& owner_prefix);
  bool empty() const { return names_.empty(); }
  // The value of `name` (ASCII whitespace around it ignored).
  bool Find(absl::string_view name, int* value) const;
  // The name of `value`, or nullptr.
  const std::string* Name(int value) const;
  // "{'max', 'avg'}".
  std::string Braced() const;
  // "did you mean 'max'?" or "" when no name is close to `text`.
  std::string Suggestion(absl::string_view text) const;

 private:
  std::vector<std::pair<std::string, int>> names_;
  std::map<std::string, int, std::less<>> by_name_;
  std::map<int, std::string> by_value_;
};

}  // namespace internal

// Every arithmetic type gets ranges; any other type parses through its stream
// operators.
template <typename DType>
class FieldEntry
    : public std::conditional_t<std::is_arithmetic_v<DType>,
                                FieldEntryNumeric<FieldEntry<DType>, DType>,
                                FieldEntryBase<FieldEntry<DType>, DType>> {
  static_assert(std::is_arithmetic_v<DType> ||
                    (internal::HasStreamExtraction<DType>::value &&
                     internal::HasStreamInsertion<DType>::value),
                "A parameter field of a user type needs `std::istream& "
                "operator>>(std::istream&, T&)` and `std::ostream& "
                "operator<<(std::ostream&, const T&)` that argument-dependent "
                "lookup finds.");
  static_assert(
      std::is_default_constructible_v<DType> &&
          std::is_copy_assignable_v<DType>,
      "A parameter field type must be default-constructible and copyable.");
};

// int: a number, or one of the names given to add_enum.
template <>
class FieldEntry<int> : public FieldEntryNumeric<FieldEntry<int>, int> {
 public:
  // Makes the field an enum: it then accepts exactly the declared names and
  // prints values back as names. Throws ParamError for a name or value that
  // is already declared.
  FieldEntry<int>& add_enum(const std::string& name, int value);

  bool ParseText(absl::string_view text, int* out,
                 std::string* reason) const override;
  bool Validate(const int& value, std::string* reason) const override;
  void PrintValue(std::ostream& os, const int& value) const override;
  std::string Accepted() const override;
  bool is_enum() const { return !enums_.empty(); }

 protected:
  void PrintDefaultValueString(std::ostream& os) const override;

 private:
  internal::EnumNames enums_;
};

// bool: "true", "false", "1" or "0" in any case; prints "True" or "False".
template <>
class FieldEntry<bool> : public FieldEntryBase<FieldEntry<bool>, bool> {
 public:
  bool ParseText(absl::string_view text, bool* out,
                 std::string* reason) const override;
  void PrintValue(std::ostream& os, const bool& value) const override;
};

// std::string: the value exactly as given, whitespace included.
template <>
class FieldEntry<std::string>
    : public FieldEntryBase<FieldEntry<std::string>, std::string> {
 public:
  bool ParseText(absl::string_view text, std::string* out,
                 std::string* reason) const override;
  void PrintValue(std::ostream& os, const std::string& value) const override;

 protected:
  void PrintDefaultValueString(std::ostream& os) const override;
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_H_
