// Locale-independent parsing and printing of numbers for parameter fields.
//
// ParseNumber accepts exactly one number, optionally surrounded by ASCII
// whitespace and led by one '+': decimal integers for integer types; decimal
// or exponent notation, "inf", "infinity" and "nan" (any case) for floating
// types. It never reads outside `text`. FormatNumber prints the shortest text
// that parses back to the same value.
//
// Example:
//
//   int n;
//   std::string reason;
//   umbra::param::internal::ParseNumber("  42 ", &n, &reason);  // true, 42
//   umbra::param::internal::ParseNumber("300", &i8, &reason);
//       // false, reason "out of range for int8"
//   umbra::param::internal::FormatNumber(0.01f);  // "0.01"
#ifndef UMBRA_PARAM_NUMBER_TEXT_H_
#define UMBRA_PARAM_NUMBER_TEXT_H_

#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <type_traits>

#include "absl/strings/string_view.h"
#include "param/type_name.h"

namespace umbra {
namespace param {
namespace internal {

// `text` without surrounding ASCII whitespace and without one leading '+'
// (kept when a sign follows it, so that "+-1" stays invalid).
absl::string_view StripNumberText(absl::string_view text);

// Parses a decimal integer into the widest integer of T's signedness.
bool ParseWideInteger(absl::string_view text, bool is_signed,
                      long long* out_signed, unsigned long long* out_unsigned,
                      bool* out_of_range);

template <typename T>
bool ParseNumber(absl::string_view text, T* out, std::string* reason) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "ParseNumber parses integer and floating-point types.");
  text = StripNumberText(text);
  if (text.empty()) return false;
  if constexpr (std::is_integral_v<T>) {
    long long wide_signed = 0;
    unsigned long long wide_unsigned = 0;
    bool out_of_range = false;
    const bool parsed = ParseWideInteger(
        text, std::is_signed_v<T>, &wide_signed, &wide_unsigned, &out_of_range);
    if (parsed) {
      if constexpr (std::is_signed_v<T>) {
        if (wide_signed >= std::numeric_limits<T>::min() &&
            wide_signed <= std::numeric_limits<T>::max()) {
          *out = static_cast<T>(wide_signed);
          return true;
        }
      } else {
        if (wide_unsigned <= std::numeric_limits<T>::max()) {
          *out = static_cast<T>(wide_unsigned);
          return true;
        }
      }
      out_of_range = true;
    }
    if (out_of_range) *reason = "out of range for " + TypeName<T>();
    return false;
  } else {
    T value = 0;
    const char* const begin = text.data();
    const char* const end = text.data() + text.size();
    std::from_chars_result result = std::from_chars(begin, end, value);
    if (result.ptr != end) return false;
    if (result.ec == std::errc()) {
      *out = value;
      return true;
    }
    if (result.ec != std::errc::result_out_of_range) return false;
    // Too large, or too close to zero. Tell them apart in a wider type: values
    // that underflow become the nearest float (zero or subnormal).
    if constexpr (!std::is_same_v<T, long double>) {
      long double wide = 0;
      result = std::from_chars(begin, end, wide);
      if (result.ec == std::errc() &&
          !(wide > std::numeric_limits<T>::max() ||
            wide < std::numeric_limits<T>::lowest())) {
        *out = static_cast<T>(wide);
        return true;
      }
    }
    *reason = "out of range for " + TypeName<T>();
    return false;
  }
}

// The shortest decimal text that ParseNumber reads back as `value`.
template <typename T>
std::string FormatNumber(T value) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "FormatNumber prints integer and floating-point types.");
  char buffer[128];
  std::to_chars_result result;
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      result = std::to_chars(buffer, buffer + sizeof(buffer),
                             static_cast<long long>(value));
    } else {
      result = std::to_chars(buffer, buffer + sizeof(buffer),
                             static_cast<unsigned long long>(value));
    }
  } else {
    result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  }
  if (result.ec != std::errc()) return "?";
  return std::string(buffer, result.ptr);
}

}  // namespace internal
}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_NUMBER_TEXT_H_
