#include "train/config/config_error.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace train {

SourceLocation SourceLocation::File(absl::string_view source, int line) {
  SourceLocation location;
  location.source = std::string(source);
  location.line = line;
  return location;
}

SourceLocation SourceLocation::CommandLine(int argument) {
  SourceLocation location;
  location.argument = argument;
  return location;
}

std::string SourceLocation::ToString() const {
  if (from_command_line()) {
    return absl::StrCat("command line: argument ", argument);
  }
  if (line == 0) return source.empty() ? std::string("config") : source;
  return absl::StrCat(source, ":", line);
}

ConfigError::ConfigError(SourceLocation location, std::string key,
                         const std::string& detail)
    : std::runtime_error(absl::StrCat(location.ToString(), ": ", detail)),
      location_(std::move(location)),
      key_(std::move(key)),
      detail_(detail) {}

}  // namespace train
}  // namespace umbra
