#include "param/field_entry.h"

#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "param/edit_distance.h"
#include "param/param_error.h"

namespace umbra {
namespace param {
namespace internal {

bool ParseBool(absl::string_view text, bool* out) {
  const std::string lower =
      absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (lower == "true" || lower == "1") {
    *out = true;
    return true;
  }
  if (lower == "false" || lower == "0") {
    *out = false;
    return true;
  }
  return false;
}

void EnumNames::Add(const std::string& name, int value,
                    const std::string& owner_prefix) {
  if (by_name_.count(name) != 0) {
    throw ParamError(absl::StrCat(owner_prefix, "enum name '", name,
                                  "' is declared twice; enums: ", Braced()));
  }
  auto it = by_value_.find(value);
  if (it != by_value_.end()) {
    throw ParamError(absl::StrCat(owner_prefix, "enum value ", value, " of '",
                                  name, "' is already the value of '",
                                  it->second, "'"));
  }
  names_.emplace_back(name, value);
  by_name_.emplace(name, value);
  by_value_.emplace(value, name);
}

bool EnumNames::Find(absl::string_view name, int* value) const {
  auto it = by_name_.find(absl::StripAsciiWhitespace(name));
  if (it == by_name_.end()) return false;
  *value = it->second;
  return true;
}

const std::string* EnumNames::Name(int value) const {
  auto it = by_value_.find(value);
  return it == by_value_.end() ? nullptr : &it->second;
}

std::string EnumNames::Braced() const {
  std::vector<std::string> quoted;
  quoted.reserve(names_.size());
  for (const auto& [name, value] : names_)
    quoted.push_back(absl::StrCat("'", name, "'"));
  return absl::StrCat("{", absl::StrJoin(quoted, ", "), "}");
}

std::string EnumNames::Suggestion(absl::string_view text) const {
  std::vector<std::string> names;
  names.reserve(names_.size());
  for (const auto& [name, value] : names_) names.push_back(name);
  std::optional<std::string> match =
      ClosestMatch(absl::StripAsciiWhitespace(text), names);
  return match ? absl::StrCat("did you mean '", *match, "'?") : "";
}

}  // namespace internal

FieldEntry<int>& FieldEntry<int>::add_enum(const std::string& name, int value) {
  std::string prefix = struct_name_.empty()
                           ? absl::StrCat("key '", key_, "': ")
                           : absl::StrCat(struct_name_, ": key '", key_, "': ");
  enums_.Add(name, value, prefix);
  return *this;
}

bool FieldEntry<int>::ParseText(absl::string_view text, int* out,
                                std::string* reason) const {
  if (enums_.empty()) return FieldEntryNumeric::ParseText(text, out, reason);
  if (enums_.Find(text, out)) return true;
  *reason = enums_.Suggestion(text);
  return false;
}

bool FieldEntry<int>::Validate(const int& value, std::string* reason) const {
  if (!enums_.empty() && enums_.Name(value) == nullptr) return false;
  return FieldEntryNumeric::Validate(value, reason);
}

void FieldEntry<int>::PrintValue(std::ostream& os, const int& value) const {
  const std::string* name = enums_.Name(value);
  if (name != nullptr) {
    os << *name;
  } else {
    FieldEntryNumeric::PrintValue(os, value);
  }
}

std::string FieldEntry<int>::Accepted() const {
  return enums_.empty() ? FieldEntryNumeric::Accepted() : enums_.Braced();
}

void FieldEntry<int>::PrintDefaultValueString(std::ostream& os) const {
  if (enums_.empty()) {
    PrintValue(os, default_value_);
  } else {
    os << '\'';
    PrintValue(os, default_value_);
    os << '\'';
  }
}

bool FieldEntry<bool>::ParseText(absl::string_view text, bool* out,
                                 std::string* reason) const {
  if (internal::ParseBool(text, out)) return true;
  *reason = "use true, false, 1 or 0";
  return false;
}

void FieldEntry<bool>::PrintValue(std::ostream& os, const bool& value) const {
  os << (value ? "True" : "False");
}

bool FieldEntry<std::string>::ParseText(absl::string_view text,
                                        std::string* out,
                                        std::string* /*reason*/) const {
  out->assign(text.data(), text.size());
  return true;
}

void FieldEntry<std::string>::PrintValue(std::ostream& os,
                                         const std::string& value) const {
  os << value;
}

void FieldEntry<std::string>::PrintDefaultValueString(std::ostream& os) const {
  os << '\'' << default_value_ << '\'';
}

}  // namespace param
}  // namespace umbra
