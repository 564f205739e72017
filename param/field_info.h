// ParamFieldInfo: one field of a parameter struct described in text, for
// docs, help screens and the Markdown reference.
//
// Example (a field declared as
//   UMBRA_DECLARE_FIELD(lr).set_default(0.01f).describe("Learning rate.")):
//
//   name = "lr", type = "float", accepted = "float",
//   type_info_str = "float, optional, default=0.01",
//   default_value = "0.01", required = false, description = "Learning rate."
#ifndef UMBRA_PARAM_FIELD_INFO_H_
#define UMBRA_PARAM_FIELD_INFO_H_

#include <string>
#include <vector>

namespace umbra {

struct ParamFieldInfo {
  // The key, as the field is named in the struct.
  std::string name;
  // The value type, e.g. "int", "float or None", "tuple of int".
  std::string type;
  // What a value must be: the type with its range or enum names, e.g.
  // "int in [1, inf)" or "{'max', 'avg'}".
  std::string accepted;
  // `accepted` followed by ", required" or ", optional, default=<value>".
  std::string type_info_str;
  // The default printed as in type_info_str; empty for a required field.
  std::string default_value;
  // True when the field has no default and every Init must give it.
  bool required = false;
  // The text given to describe(); may be empty.
  std::string description;
  // Other keys that set this field (UMBRA_DECLARE_ALIAS), in declaration order.
  std::vector<std::string> aliases;
};

}  // namespace umbra

#endif  // UMBRA_PARAM_FIELD_INFO_H_
