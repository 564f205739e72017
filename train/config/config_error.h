// ConfigError and SourceLocation: where a config entry came from, and the one
// exception the config layer throws.
//
// Every message starts with the location, then names the key and says what
// was expected:
//
//   mnist.conf:17: key 'nhiden' in layer fc1 (fullc): unknown key; did you
//   mean 'nhidden'? Valid keys: init_sigma, nhidden, ...
//   command line: argument 2 'eta': expected key=value, got 'eta'
//
// Example:
//
//   try {
//     umbra::train::TrainConfig config =
//         umbra::train::LoadTrainConfig(path, overrides);
//   } catch (const umbra::train::ConfigError& e) {
//     std::cerr << e.what() << "\n";  // "mnist.conf:17: ..."
//     return 1;                        // training never starts
//   }
#ifndef UMBRA_TRAIN_CONFIG_CONFIG_ERROR_H_
#define UMBRA_TRAIN_CONFIG_CONFIG_ERROR_H_

#include <stdexcept>
#include <string>

#include "absl/strings/string_view.h"

namespace umbra {
namespace train {

// Where one config entry was written: a line of a file (or of a text given a
// source name), or one argument of the command line.
struct SourceLocation {
  // The file name or source name; empty for the command line.
  std::string source;
  // 1-based line in `source`; 0 for the command line, or for the file as a
  // whole (an error about something no line says, like a missing block).
  int line = 0;
  // Index of the argument in argv for the command line; 0 for a file.
  int argument = 0;

  static SourceLocation File(absl::string_view source, int line);
  static SourceLocation CommandLine(int argument);

  bool from_command_line() const { return argument > 0; }
  // "mnist.conf:17", "mnist.conf" (line 0) or "command line: argument 2":
  // the prefix of messages.
  std::string ToString() const;

  friend bool operator==(const SourceLocation& a, const SourceLocation& b) {
    return a.source == b.source && a.line == b.line && a.argument == b.argument;
  }
};

// A config that cannot be read, is malformed, has an unknown key or a bad
// value. what() is "<location>: <detail>".
class ConfigError : public std::runtime_error {
 public:
  // `key` is the key the error is about (may be empty when there is none,
  // e.g. a line without '='); `detail` says what is wrong and what was
  // expected, and should quote the key.
  ConfigError(SourceLocation location, std::string key,
              const std::string& detail);

  const SourceLocation& location() const { return location_; }
  const std::string& key() const { return key_; }
  // The message without the location prefix.
  const std::string& detail() const { return detail_; }

 private:
  SourceLocation location_;
  std::string key_;
  std::string detail_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_CONFIG_ERROR_H_
