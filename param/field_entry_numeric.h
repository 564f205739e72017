// FieldEntryNumeric<TEntry, DType>: FieldEntry behaviour shared by integer and
// floating-point fields: strict parsing and an optional range.
//
// Range setters: set_range(lo, hi) (both ends included), set_lower_bound(lo)
// and set_upper_bound(hi), each inclusive unless given kExclusive.
// Floating-point fields reject inf and nan unless allow_inf_nan() is called.
// A value outside the range is refused with
//
//   FullcParam: key 'nhidden': expected int in [1, inf), got '0'
//   BatchNormParam: key 'eps': expected float in (0, inf), got '0'
//
// Example:
//
//   UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1);
//   UMBRA_DECLARE_FIELD(eps).set_lower_bound(0.0f, param::kExclusive);
//   UMBRA_DECLARE_FIELD(dropout).set_range(0.0f, 1.0f).set_default(0.5f);
//   UMBRA_DECLARE_FIELD(clip).set_upper_bound(10.0).set_default(10.0);
#ifndef UMBRA_PARAM_FIELD_ENTRY_NUMERIC_H_
#define UMBRA_PARAM_FIELD_ENTRY_NUMERIC_H_

#include <cmath>
#include <ostream>
#include <string>
#include <type_traits>

#include "absl/strings/string_view.h"
#include "param/field_entry_base.h"
#include "param/number_text.h"

namespace umbra {
namespace param {

// Whether a bound is itself an accepted value.
enum Bound { kInclusive, kExclusive };

template <typename TEntry, typename DType>
class FieldEntryNumeric : public FieldEntryBase<TEntry, DType> {
 public:
  // Accepts values in [begin, end]. Throws ParamError when end < begin.
  TEntry& set_range(DType begin, DType end) {
    if (end < begin) {
      this->ThrowError("set_range(" + internal::FormatNumber(begin) + ", " +
                       internal::FormatNumber(end) + ") is an empty range");
    }
    set_lower_bound(begin);
    return set_upper_bound(end);
  }
  // Accepts values >= begin (> begin when kExclusive).
  TEntry& set_lower_bound(DType begin, Bound bound = kInclusive) {
    begin_ = begin;
    has_begin_ = true;
    begin_bound_ = bound;
    return this->self();
  }
  // Accepts values <= end (< end when kExclusive).
  TEntry& set_upper_bound(DType end, Bound bound = kInclusive) {
    end_ = end;
    has_end_ = true;
    end_bound_ = bound;
    return this->self();
  }
  // Lets a floating-point field take "inf", "-inf" and "nan".
  TEntry& allow_inf_nan() {
    static_assert(std::is_floating_point_v<DType>,
                  "allow_inf_nan() is for float and double fields only.");
    allow_inf_nan_ = true;
    return this->self();
  }

  bool ParseText(absl::string_view text, DType* out,
                 std::string* reason) const override {
    return internal::ParseNumber(text, out, reason);
  }
  bool Validate(const DType& value, std::string* reason) const override {
    if constexpr (std::is_floating_point_v<DType>) {
      if (!allow_inf_nan_ && !std::isfinite(value)) {
        *reason = "inf and nan are not allowed here";
        return false;
      }
    }
    if (has_begin_ &&
        (value < begin_ || (begin_bound_ == kExclusive && value == begin_))) {
      return false;
    }
    if (has_end_ &&
        (value > end_ || (end_bound_ == kExclusive && value == end_))) {
      return false;
    }
    return true;
  }
  void PrintValue(std::ostream& os, const DType& value) const override {
    os << internal::FormatNumber(value);
  }
  std::string Accepted() const override { return this->type_ + RangeText(); }

 protected:
  // " in [lo, hi]", " in (lo, inf)", " in (-inf, hi)" or "": a bracket
  // for an inclusive bound, a parenthesis for an exclusive one or none.
  std::string RangeText() const {
    if (!has_begin_ && !has_end_) return "";
    std::string text = " in ";
    text += has_begin_ ? (begin_bound_ == kInclusive ? "[" : "(") +
                             internal::FormatNumber(begin_)
                       : std::string("(-inf");
    text += ", ";
    text += has_end_ ? internal::FormatNumber(end_) +
                           (end_bound_ == kInclusive ? "]" : ")")
                     : std::string("inf)");
    return text;
  }

  bool has_begin_ = false;
  bool has_end_ = false;
  Bound begin_bound_ = kInclusive;
  Bound end_bound_ = kInclusive;
  bool allow_inf_nan_ = false;
  DType begin_{};
  DType end_{};
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_NUMERIC_H_
