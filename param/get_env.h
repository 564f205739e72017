// GetEnv<T>: a setting read from an environment variable with the same
// parsing rules and errors as a parameter field of type T.
//
// Example:
//
//   int threads = umbra::GetEnv("UMBRA_NUM_THREADS", 4);
//   // unset -> 4; "8" -> 8; "eight" -> ParamError:
//   // environment: key 'UMBRA_NUM_THREADS': expected int, got 'eight'
#ifndef UMBRA_PARAM_GET_ENV_H_
#define UMBRA_PARAM_GET_ENV_H_

#include <cstdlib>
#include <string>

#include "param/field_entry.h"
#include "param/field_entry_optional.h"
#include "param/field_entry_tuple.h"

namespace umbra {

// The value of the environment variable `name` parsed as a T field would
// parse it, or `default_value` when the variable is not set. Throws
// ParamError (struct "environment", key `name`) for a value that does not
// parse.
template <typename T>
T GetEnv(const char* name, T default_value) {
  const char* text = std::getenv(name);
  if (text == nullptr) return default_value;
  T value = default_value;
  param::FieldEntry<T> entry;
  entry.Init(name, &value, value);
  entry.set_struct_name("environment");
  entry.Set(&value, text);
  return value;
}

// So that GetEnv("NAME", "text") returns a std::string.
inline std::string GetEnv(const char* name, const char* default_value) {
  return GetEnv<std::string>(name, default_value);
}

}  // namespace umbra

#endif  // UMBRA_PARAM_GET_ENV_H_
