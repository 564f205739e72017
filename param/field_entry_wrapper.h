// FieldEntryWrapper<TEntry, DType, T>: the shared part of a FieldEntry whose
// DType holds values of a simpler field type T, such as std::optional<T>
// (field_entry_optional.h) and std::vector<T> (field_entry_tuple.h).
//
// It owns an inner FieldEntry<T> that parses, checks and prints each T value,
// and forwards the key, the struct name and the constraint setters to it. The
// deriving TEntry overrides ParseText, Validate, PrintValue and Accepted to
// say how a DType is made of T values ("None", tuples), calling `inner_` for
// each one.
//
// Example:
//
//   template <typename T>
//   class FieldEntry<std::optional<T>>
//       : public FieldEntryWrapper<FieldEntry<std::optional<T>>,
//                                  std::optional<T>, T> {
//     bool ParseText(absl::string_view text, std::optional<T>* out,
//                    std::string* reason) const override;  // uses inner_
//     ...
//   };
#ifndef UMBRA_PARAM_FIELD_ENTRY_WRAPPER_H_
#define UMBRA_PARAM_FIELD_ENTRY_WRAPPER_H_

#include <string>
#include <utility>

#include "param/field_entry.h"
#include "param/field_entry_base.h"

namespace umbra {
namespace param {

template <typename TEntry, typename DType, typename T>
class FieldEntryWrapper : public FieldEntryBase<TEntry, DType> {
 public:
  using Parent = FieldEntryBase<TEntry, DType>;

  void Init(const std::string& key, void* head, DType& ref) {
    Parent::Init(key, head, ref);
    inner_.Init(key, &inner_value_, inner_value_);
  }
  void set_struct_name(std::string name) override {
    inner_.set_struct_name(name);
    Parent::set_struct_name(std::move(name));
  }

  // Constraints on each T value inside; see FieldEntryNumeric.
  TEntry& set_range(T begin, T end) {
    inner_.set_range(begin, end);
    return this->self();
  }
  TEntry& set_lower_bound(T begin) {
    inner_.set_lower_bound(begin);
    return this->self();
  }
  TEntry& set_upper_bound(T end) {
    inner_.set_upper_bound(end);
    return this->self();
  }
  TEntry& allow_inf_nan() {
    inner_.allow_inf_nan();
    return this->self();
  }

 protected:
  // Parses, checks and prints each T value; bound to inner_value_ only so
  // that its own Init has something to point at.
  FieldEntry<T> inner_;
  T inner_value_{};
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_WRAPPER_H_
