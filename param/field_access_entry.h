// FieldAccessEntry: the type-erased interface through which a ParamManager
// reads and writes one field of a parameter struct.
//
// An entry knows the field's key, its offset in the struct and how to parse,
// check, print and describe its value. Concrete entries are FieldEntry<T>
// (see field_entry.h); users meet them only through the chained setters in
// UMBRA_DECLARE_FIELD(...).set_default(...).describe(...).
//
// Example (what ParamManager does for `nhidden=128`):
//
//   const param::FieldAccessEntry* entry = manager.Find("nhidden");
//   entry->Set(&param, "128");                 // parses and range-checks
//   std::string text = entry->GetStringValue(&param);  // "128"
#ifndef UMBRA_PARAM_FIELD_ACCESS_ENTRY_H_
#define UMBRA_PARAM_FIELD_ACCESS_ENTRY_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "param/field_info.h"

namespace umbra {
namespace param {

class FieldAccessEntry {
 public:
  FieldAccessEntry() = default;
  FieldAccessEntry(const FieldAccessEntry&) = delete;
  FieldAccessEntry& operator=(const FieldAccessEntry&) = delete;
  virtual ~FieldAccessEntry() = default;

  // Stores the default value in the field of the struct at `head`. Throws
  // ParamError naming the key when the field is required (has no default).
  virtual void SetDefault(void* head) const = 0;
  // Parses `value` and stores it in the field of the struct at `head`. The
  // whole text must be one value (surrounding whitespace aside, and kept for
  // strings). Throws ParamError, leaving the field unchanged, when `value`
  // does not parse or breaks the field's range or enum.
  void Set(void* head, absl::string_view value) const {
    SetAs(head, key_, value);
  }
  // Set for a value given under `given_key`, the field's name or one of its
  // aliases: an error about it names both ("key 'nhidden' (given as
  // 'num_hidden')").
  virtual void SetAs(void* head, absl::string_view given_key,
                     absl::string_view value) const = 0;
  // Throws ParamError when the field's current value breaks its constraints
  // (a value stored by hand rather than through Set).
  virtual void Check(void* /*head*/) const {}
  // The field's current value as text that Set accepts back.
  virtual std::string GetStringValue(void* head) const = 0;
  // The field described in text; `aliases` is left empty (the manager knows
  // them).
  virtual ParamFieldInfo GetFieldInfo() const = 0;
  // Throws ParamError when the declaration contradicts itself, e.g. a default
  // outside the range. ParamManagerSingleton calls it once per field.
  virtual void CheckDeclaration() const {}

  const std::string& key() const { return key_; }
  const std::string& type() const { return type_; }
  const std::string& description() const { return description_; }
  bool has_default() const { return has_default_; }
  // Position of the field in declaration order.
  std::size_t index() const { return index_; }
  // The struct that owns the field, as used in error messages.
  const std::string& struct_name() const { return struct_name_; }
  // Sets the struct name used in error messages; ParamManager::AddEntry does
  // this, standalone entries (GetEnv) call it themselves.
  virtual void set_struct_name(std::string name) {
    struct_name_ = std::move(name);
  }

 protected:
  // Throws ParamError "<struct>: key '<key>': <detail>", remembering the
  // refused `value` when there is one; "key '<key>' (given as '<alias>')"
  // when `given_key` is an alias.
  [[noreturn]] void ThrowError(absl::string_view detail,
                               absl::string_view value = {},
                               absl::string_view given_key = {}) const;
  // Throws ParamError "<struct>: key '<key>': expected <accepted>, got
  // '<value>'", followed by " (<reason>)" when `reason` is not empty; the
  // value is quoted short (QuoteShort).
  [[noreturn]] void ThrowBadValue(absl::string_view accepted,
                                  absl::string_view value,
                                  absl::string_view reason,
                                  absl::string_view given_key = {}) const;
  // Prints the default value as docs show it (strings and enum names quoted).
  virtual void PrintDefaultValueString(std::ostream& os) const = 0;

  bool has_default_ = false;
  std::size_t index_ = 0;
  std::string key_;
  std::string type_;
  std::string description_;
  std::string struct_name_;

  friend class ParamManager;
};

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_ACCESS_ENTRY_H_
