// FieldEntryBase<TEntry, DType>: the shared machinery of every FieldEntry<T>.
//
// It stores the field's offset in the struct, the default value and the
// description, and implements FieldAccessEntry in terms of four value-level
// hooks that each FieldEntry<T> may override:
//
//   ParseText(text, &value, &reason)  syntax: is `text` one DType value?
//   Validate(value, &reason)          constraints: range, enum names, ...
//   PrintValue(os, value)             text that ParseText reads back
//   Accepted()                        "int in [1, inf)", "{'max', 'avg'}", ...
//
// The defaults use the stream operators, which is how a user type with
// `operator>>` and `operator<<` becomes a field type.
//
// Example (inside UMBRA_DECLARE_PARAMETER; the setters chain):
//
//   UMBRA_DECLARE_FIELD(name).set_default("net").describe("Model name.");
#ifndef UMBRA_PARAM_FIELD_ENTRY_BASE_H_
#define UMBRA_PARAM_FIELD_ENTRY_BASE_H_

#include <cstddef>
#include <exception>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/string_view.h"
#include "param/field_access_entry.h"
#include "param/field_info.h"
#include "param/param_error.h"
#include "param/quote.h"
#include "param/type_name.h"

namespace umbra {
namespace param {
namespace internal {

template <typename T, typename = void>
struct HasStreamExtraction : std::false_type {};
template <typename T>
struct HasStreamExtraction<
    T,
    std::void_t<decltype(std::declval<std::istream&>() >> std::declval<T&>())>>
    : std::true_type {};

template <typename T, typename = void>
struct HasStreamInsertion : std::false_type {};
template <typename T>
struct HasStreamInsertion<T, std::void_t<decltype(std::declval<std::ostream&>()
                                                  << std::declval<const T&>())>>
    : std::true_type {};

}  // namespace internal

template <typename TEntry, typename DType>
class FieldEntryBase : public FieldAccessEntry {
 public:
  // Binds the entry to the member `ref` of the struct at `head`.
  void Init(const std::string& key, void* head, DType& ref) {
    this->key_ = key;
    if (this->type_.empty()) this->type_ = TypeName<DType>();
    offset_ = reinterpret_cast<char*>(&ref) - static_cast<char*>(head);
  }

  // Makes the field optional with this default.
  TEntry& set_default(const DType& default_value) {
    default_value_ = default_value;
    this->has_default_ = true;
    return self();
  }
  // The sentence docs show under the field.
  TEntry& describe(const std::string& description) {
    this->description_ = description;
    return self();
  }

  void SetDefault(void* head) const override {
    if (!this->has_default_) {
      ThrowError("required value missing, expected " + Accepted());
    }
    Get(head) = default_value_;
  }

  void SetAs(void* head, absl::string_view given_key,
             absl::string_view value) const override {
    DType parsed{};
    std::string reason;
    if (!ParseText(value, &parsed, &reason) || !Validate(parsed, &reason)) {
      ThrowBadValue(Accepted(), value, reason, given_key);
    }
    Get(head) = std::move(parsed);
  }

  void Check(void* head) const override {
    std::string reason;
    if (!Validate(Get(head), &reason)) {
      ThrowBadValue(Accepted(), ValueText(Get(head)), reason);
    }
  }

  std::string GetStringValue(void* head) const override {
    return ValueText(Get(head));
  }

  ParamFieldInfo GetFieldInfo() const override {
    ParamFieldInfo info;
    info.name = this->key_;
    info.type = this->type_;
    info.accepted = Accepted();
    info.description = this->description_;
    info.required = !this->has_default_;
    if (this->has_default_) {
      std::ostringstream os;
      PrintDefaultValueString(os);
      info.default_value = os.str();
      info.type_info_str =
          info.accepted + ", optional, default=" + info.default_value;
    } else {
      info.type_info_str = info.accepted + ", required";
    }
    return info;
  }

  void CheckDeclaration() const override {
    if (!this->has_default_) return;
    std::string reason;
    if (!Validate(default_value_, &reason)) {
      ThrowError("declared default " + QuoteShort(ValueText(default_value_)) +
                 " is not " + Accepted());
    }
  }

  // Parses `text` as one DType into `*out`. Returns false when it is not one,
  // and may then explain why in `*reason`. Never reads outside `text`.
  virtual bool ParseText(absl::string_view text, DType* out,
                         std::string* reason) const {
    if constexpr (internal::HasStreamExtraction<DType>::value) {
      try {
        std::istringstream is{std::string(text)};
        DType value{};
        is >> value;
        if (is.fail()) return false;
        is >> std::ws;
        if (is.peek() != std::char_traits<char>::eof()) return false;
        *out = std::move(value);
        return true;
      } catch (const ParamError&) {
        throw;
      } catch (const std::exception& e) {
        *reason = e.what();
        return false;
      }
    } else {
      // Overridden by every FieldEntry of a type without operator>>.
      static_cast<void>(text);
      static_cast<void>(out);
      static_cast<void>(reason);
      return false;
    }
  }
  // True when `value` meets the field's constraints; otherwise may explain why
  // in `*reason`.
  virtual bool Validate(const DType& /*value*/, std::string* /*reason*/) const {
    return true;
  }
  // Prints `value` as text that ParseText reads back.
  virtual void PrintValue(std::ostream& os, const DType& value) const {
    if constexpr (internal::HasStreamInsertion<DType>::value) {
      os << value;
    } else {
      // Overridden by every FieldEntry of a type without operator<<.
      static_cast<void>(value);
      os << "<value>";
    }
  }
  // What a value must be, e.g. "int in [1, inf)"; by default the type name.
  virtual std::string Accepted() const { return this->type_; }

  const DType& default_value() const { return default_value_; }

 protected:
  // The field inside the struct at `head`.
  DType& Get(void* head) const {
    return *reinterpret_cast<DType*>(static_cast<char*>(head) + offset_);
  }
  TEntry& self() { return *static_cast<TEntry*>(this); }
  std::string ValueText(const DType& value) const {
    std::ostringstream os;
    PrintValue(os, value);
    return os.str();
  }
  void PrintDefaultValueString(std::ostream& os) const override {
    PrintValue(os, default_value_);
  }

  std::ptrdiff_t offset_ = 0;
  DType default_value_{};
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ENTRY_BASE_H_
