#include "param/param_error.h"

#include <string>
#include <utility>

namespace umbra {

ParamError::ParamError(const std::string& message)
    : std::invalid_argument(message) {}

ParamError::ParamError(const std::string& message, std::string struct_name,
                       std::string key, std::string value)
    : std::invalid_argument(message),
      struct_name_(std::move(struct_name)),
      key_(std::move(key)),
      value_(std::move(value)) {}

}  // namespace umbra
