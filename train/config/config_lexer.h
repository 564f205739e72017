// The config lexer: cxxnet's `key = value` text turned into an ordered list
// of entries, each with the file and line it came from. The structure
// (netconfig, layers, iterator blocks) is read from these entries by
// train_config.h.
//
// The rules (cxxnet's, made strict):
//   - One `key = value` per line; spaces and tabs around `=` are free.
//   - `#` starts a comment anywhere outside quotes, also right after a value
//     (`nhidden = 10# ten` is nhidden = 10).
//   - Keys and values are bare words (no spaces, `=`, `#` or quotes) or quoted:
//     "..." ends on the same line; '...' may span lines. Inside either, a
//     backslash takes the next character literally (`\"` is `"`, `\\` is `\`).
//   - A value containing spaces must be quoted; `a = b c`, `a b = c`, `a =`,
//     `= b`, a line without `=`, an unterminated quote, a word glued to a
//     quote (`ab"c"`) and control characters are errors with file:line.
//   - CRLF or CR line ends and a UTF-8 byte order mark are accepted.
//   - Repeated keys are all kept in order; whoever reads them lets the last
//     one win.
//
// Example:
//
//   std::vector<ConfigEntry> entries =
//       ParseConfigText("batch_size = 100  # per device\n", "my.conf");
//   // entries[0]: key "batch_size", value "100", location my.conf:1
//   std::vector<ConfigEntry> overrides =
//       ParseCommandLineOverrides({"eta=0.05", "dev=gpu"}, 2);
//   // overrides[1]: key "dev", value "gpu", location argument 3
#ifndef UMBRA_TRAIN_CONFIG_CONFIG_LEXER_H_
#define UMBRA_TRAIN_CONFIG_CONFIG_LEXER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/config/config_error.h"

namespace umbra {
namespace train {

// One `key = value` line (or command-line argument).
struct ConfigEntry {
  std::string key;
  std::string value;
  // Where the entry was written (for a multi-line quoted value, the line it
  // starts on).
  SourceLocation location;
  // True when the value was written in quotes.
  bool quoted_value = false;

  // "key = value" as a message quotes it.
  std::string ToString() const;
  // Whether the value is an unquoted `default`: cxxnet's "leave the key as it
  // was", which sets nothing.
  bool is_default() const { return value == "default" && !quoted_value; }
  // The ConfigError about this entry: at its line, for its key.
  ConfigError Error(const std::string& detail) const {
    return ConfigError(location, key, detail);
  }
};

// The entries of `text` in order. `source_name` is used in locations and
// messages (a file name, or e.g. "<test>"). Throws ConfigError for a
// malformed line.
std::vector<ConfigEntry> ParseConfigText(absl::string_view text,
                                         absl::string_view source_name);

// The most bytes a config file may hold (64 MiB).
inline constexpr std::size_t kMaxConfigBytes = std::size_t{64} << 20;

// ParseConfigText of the file at `path`, with `path` as the source name.
// Throws ConfigError (location `path:0`) when the file cannot be opened or
// read (with the system's reason: "Permission denied", ...), is a
// directory, or holds more than kMaxConfigBytes (read no further).
std::vector<ConfigEntry> ParseConfigFile(const std::string& path);

// `key=value` arguments, e.g. the argv entries after the config path:
// args[i] is argument number first_argument + i. The key is everything
// before the first '=' and must be non-empty without whitespace; the value is
// the rest verbatim and must be non-empty. Throws ConfigError
// ("command line: argument N: ...") for any other argument.
std::vector<ConfigEntry> ParseCommandLineOverrides(
    const std::vector<std::string>& args, int first_argument = 1);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_CONFIG_LEXER_H_
