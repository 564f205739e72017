// ParamError: the one exception the parameter registry throws.
//
// Every message starts with the parameter struct and, where there is one, the
// key, then says what was expected and what was given:
//
//   FullcParam: key 'nhidden': expected int in [1, inf), got '0'
//   ConvParam: unknown key 'nhiden'; did you mean 'nhidden'? Valid keys: ...
//
// Example:
//
//   try {
//     param.Init(kwargs);
//   } catch (const umbra::ParamError& e) {
//     std::cerr << "layer " << name << ": " << e.what() << "\n";
//   }
#ifndef UMBRA_PARAM_PARAM_ERROR_H_
#define UMBRA_PARAM_PARAM_ERROR_H_

#include <stdexcept>
#include <string>

namespace umbra {

// A bad parameter value, an unknown key, a missing required key, malformed
// JSON, or a mistake in a parameter declaration.
class ParamError : public std::invalid_argument {
 public:
  // `message` is the whole text what() returns.
  explicit ParamError(const std::string& message);
  // As above, and remembers which struct, key and given value the message is
  // about, so a caller can rephrase it or find the line that set the value
  // (each may be empty).
  ParamError(const std::string& message, std::string struct_name,
             std::string key, std::string value = std::string());

  // The parameter struct the error is about, e.g. "FullcParam"; may be empty.
  const std::string& struct_name() const { return struct_name_; }
  // The key the error is about, e.g. "nhidden"; empty when not about one key.
  const std::string& key() const { return key_; }
  // The value text that was refused, e.g. "0"; empty when the error is not
  // about a given value (an unknown or missing key).
  const std::string& value() const { return value_; }

 private:
  std::string struct_name_;
  std::string key_;
  std::string value_;
};

}  // namespace umbra

#endif  // UMBRA_PARAM_PARAM_ERROR_H_
