// A small, strict JSON reader and writer for one object of string values,
// the form in which Parameter<PType>::Save and Load store a struct.
//
// The writer escapes '"', '\\' and control characters; other bytes pass
// through unchanged. The reader accepts exactly one object {"key": "value",
// ...} with optional whitespace; escapes \" \\ \/ \b \f \n \r \t and \uXXXX
// (surrogate pairs included, written out as UTF-8). Anything else - another
// value type, a duplicate key, a raw control character, trailing text - is a
// ParamError that gives the byte offset.
//
// Example:
//
//   std::string json = umbra::param::WriteJsonObject({{"name", "a \"b\""}});
//   // {"name": "a \"b\""}
//   umbra::ParamKwargs kwargs = umbra::param::ReadJsonObject(json, "MyParam");
#ifndef UMBRA_PARAM_JSON_H_
#define UMBRA_PARAM_JSON_H_

#include <string>

#include "absl/strings/string_view.h"
#include "param/param_manager.h"

namespace umbra {
namespace param {

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(absl::string_view text);

// The pairs as one JSON object on one line, in the given order.
std::string WriteJsonObject(const ParamKwargs& kwargs);

// The (key, value) pairs of the JSON object `json`, in document order. Throws
// ParamError "<context>: invalid JSON at byte N: <what>" when `json` is not
// exactly one object of string values with distinct keys.
ParamKwargs ReadJsonObject(absl::string_view json, absl::string_view context);

}  // namespace param
}  // namespace umbra

#endif  // UMBRA_PARAM_JSON_H_
