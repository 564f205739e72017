#include "train/config/config_lexer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "train/config/config_error.h"

namespace umbra {
namespace train {
namespace {

constexpr absl::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool IsLineEnd(char c) { return c == '\n' || c == '\r'; }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsQuote(char c) { return c == '"' || c == '\''; }
// ASCII control characters other than tab and line ends (DEL included).
bool IsControl(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u < 0x20 && !IsBlank(c) && !IsLineEnd(c)) || u == 0x7F;
}
// A character that ends a bare word.
bool EndsWord(char c) {
  return IsBlank(c) || IsLineEnd(c) || c == '=' || c == '#' || IsQuote(c) ||
         IsControl(c);
}

// Shortens `text` for quoting in a message.
std::string Excerpt(absl::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    if (IsControl(c) || IsLineEnd(c)) {
      out += absl::StrFormat("\\x%02X", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  if (text.size() > kMax) out += "...";
  return out;
}

// Reads one logical line at a time from the text, keeping the line number.
class Lexer {
 public:
  Lexer(absl::string_view text, absl::string_view source)
      : text_(text), source_(source) {
    if (absl::StartsWith(text_, kByteOrderMark)) {
      text_.remove_prefix(kByteOrderMark.size());
    }
  }

  std::vector<ConfigEntry> Run() {
    std::vector<ConfigEntry> entries;
    while (!AtEnd()) {
      ConfigEntry entry;
      if (ReadLine(&entry)) entries.push_back(std::move(entry));
    }
    return entries;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  SourceLocation Here() const { return SourceLocation::File(source_, line_); }

  [[noreturn]] void Fail(std::string key, const std::string& detail) const {
    throw ConfigError(Here(), std::move(key), detail);
  }

  // Consumes one line end (CRLF counts as one) and counts the line.
  void ConsumeLineEnd() {
    if (Peek() == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
      ++pos_;
    }
    ++pos_;
    ++line_;
  }

  void SkipBlanks() {
    while (!AtEnd() && IsBlank(Peek())) ++pos_;
  }

  // True at the end of the line's content: end of text, line end or comment.
  bool AtLineContentEnd() const {
    return AtEnd() || IsLineEnd(Peek()) || Peek() == '#';
  }

  // Skips an optional comment and the line end.
  void FinishLine() {
    while (!AtEnd() && !IsLineEnd(Peek())) ++pos_;
    if (!AtEnd()) ConsumeLineEnd();
  }

  // The rest of the current line's content, for messages.
  absl::string_view RestOfLine() const {
    std::size_t end = pos_;
    while (end < text_.size() && !IsLineEnd(text_[end])) ++end;
    return text_.substr(pos_, end - pos_);
  }

  // Reads a quoted word starting at the opening quote. `what` is "key" or
  // "value" for messages; `key` the key read so far.
  std::string ReadQuoted(const std::string& key, const char* what) {
    const char quote = Peek();
    const bool multi_line = quote == '\'';
    const int start_line = line_;
    ++pos_;
    std::string word;
    while (true) {
      if (AtEnd() || (!multi_line && IsLineEnd(Peek()))) {
        throw ConfigError(
            SourceLocation::File(source_, start_line), key,
            absl::StrCat(
                "unterminated ", multi_line ? "'...'" : "\"...\"", " quote in ",
                what, key.empty() ? "" : absl::StrCat(" of '", key, "'"),
                multi_line ? ": the text ends before the closing '"
                           : ": a \"...\" quote must close on the same line "
                             "(use '...' for values that span lines)"));
      }
      char c = Peek();
      if (c == quote) {
        ++pos_;
        break;
      }
      if (c == '\\') {
        ++pos_;
        if (AtEnd() || (!multi_line && IsLineEnd(Peek()))) continue;
        c = Peek();
      }
      if (IsLineEnd(c)) {
        // Only in '...': a line end (CRLF and CR too) is kept as '\n'.
        ConsumeLineEnd();
        word += '\n';
        continue;
      }
      word += c;
      ++pos_;
    }
    if (!AtEnd() && !EndsWord(Peek())) {
      Fail(key, absl::StrCat("text directly after the closing quote of the ",
                             what, ": '", Excerpt(RestOfLine()),
                             "'; put a space or a comment after it"));
    }
    return word;
  }

  // Reads a bare word or a quoted one. `quoted` tells which.
  std::string ReadWord(const std::string& key, const char* what, bool* quoted) {
    *quoted = IsQuote(Peek());
    if (*quoted) return ReadQuoted(key, what);
    const std::size_t start = pos_;
    while (!AtEnd() && !EndsWord(Peek())) ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    if (!AtEnd() && IsQuote(Peek())) {
      Fail(key.empty() ? word : key,
           absl::StrCat("a quote directly after '", Excerpt(word), "' in the ",
                        what, "; quote the whole ", what,
                        " or put a space before the quote"));
    }
    if (!AtEnd() && IsControl(Peek())) {
      Fail(key.empty() ? word : key,
           absl::StrFormat("control character \\x%02X in the %s",
                           static_cast<unsigned char>(Peek()), what));
    }
    return word;
  }

  // Reads one line; fills `entry` and returns true when the line holds one.
  bool ReadLine(ConfigEntry* entry) {
    SkipBlanks();
    if (AtLineContentEnd()) {
      FinishLine();
      return false;
    }
    entry->location = Here();
    if (Peek() == '=') {
      Fail("", absl::StrCat("missing key before '=' in '",
                            Excerpt(RestOfLine()), "'; expected key = value"));
    }
    bool quoted_key = false;
    entry->key = ReadWord("", "key", &quoted_key);
    if (entry->key.empty()) {
      Fail("", "empty key; expected key = value");
    }
    SkipBlanks();
    if (AtLineContentEnd()) {
      Fail(entry->key, absl::StrCat("no '=' after key '", Excerpt(entry->key),
                                    "'; expected key = value"));
    }
    if (Peek() != '=') {
      Fail(entry->key,
           absl::StrCat("expected '=' after key '", Excerpt(entry->key),
                        "', got '", Excerpt(RestOfLine()),
                        "'; keys have no spaces (quote values that do)"));
    }
    ++pos_;
    SkipBlanks();
    if (AtLineContentEnd()) {
      Fail(entry->key, absl::StrCat("missing value for key '",
                                    Excerpt(entry->key), "' after '='"));
    }
    if (Peek() == '=') {
      Fail(entry->key, absl::StrCat("two '=' after key '", Excerpt(entry->key),
                                    "'; expected one key = value per line"));
    }
    entry->value = ReadWord(entry->key, "value", &entry->quoted_value);
    SkipBlanks();
    if (!AtLineContentEnd()) {
      Fail(entry->key,
           absl::StrCat("unexpected text after the value of '",
                        Excerpt(entry->key), "': '", Excerpt(RestOfLine()),
                        "'; one key = value per line, and a value with "
                        "spaces must be quoted"));
    }
    FinishLine();
    return true;
  }

  absl::string_view text_;
  std::string source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

std::string ConfigEntry::ToString() const {
  return absl::StrCat(key, " = ", value);
}

std::vector<ConfigEntry> ParseConfigText(absl::string_view text,
                                         absl::string_view source_name) {
  return Lexer(text, source_name).Run();
}

std::vector<ConfigEntry> ParseConfigFile(const std::string& path) {
  // An ifstream opens a directory and reads nothing from it, which would
  // parse as an empty config.
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    throw ConfigError(
        SourceLocation::File(path, 0), "",
        absl::StrCat("'", path, "' is a directory, not a config file"));
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw ConfigError(
        SourceLocation::File(path, 0), "",
        absl::StrCat("cannot open the config file: ", std::strerror(errno)));
  }
  // Read with a bound, so that an endless stream (/dev/zero) or a huge
  // file that is not a config stops at once; pipes work as files do.
  std::string text;
  char chunk[1 << 16];
  int error = 0;
  while (text.size() <= kMaxConfigBytes) {
    const ssize_t got = read(fd, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) error = errno;
    if (got <= 0) break;
    text.append(chunk, got);
  }
  close(fd);
  if (error != 0) {
    throw ConfigError(
        SourceLocation::File(path, 0), "",
        absl::StrCat("cannot read the config file: ", std::strerror(error)));
  }
  if (text.size() > kMaxConfigBytes) {
    throw ConfigError(
        SourceLocation::File(path, 0), "",
        absl::StrCat("the config file holds more than ", kMaxConfigBytes >> 20,
                     " MiB, the most a config may have (is it "
                     "a config file?)"));
  }
  return ParseConfigText(text, path);
}

std::vector<ConfigEntry> ParseCommandLineOverrides(
    const std::vector<std::string>& args, int first_argument) {
  std::vector<ConfigEntry> entries;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const SourceLocation location =
        SourceLocation::CommandLine(first_argument + static_cast<int>(i));
    const std::size_t equals = arg.find('=');
    if (equals == std::string::npos) {
      throw ConfigError(
          location, "",
          absl::StrCat("expected key=value, got '", Excerpt(arg), "'"));
    }
    ConfigEntry entry;
    entry.key = arg.substr(0, equals);
    entry.value = arg.substr(equals + 1);
    entry.location = location;
    if (entry.key.empty()) {
      throw ConfigError(location, "",
                        absl::StrCat("missing key before '=' in '",
                                     Excerpt(arg), "'; expected key=value"));
    }
    for (char c : entry.key) {
      if (IsBlank(c) || IsLineEnd(c) || IsControl(c) || IsQuote(c) ||
          c == '#') {
        throw ConfigError(location, entry.key,
                          absl::StrCat("key '", Excerpt(entry.key),
                                       "' has a space, quote, '#' or control "
                                       "character; expected key=value"));
      }
    }
    if (entry.value.empty()) {
      throw ConfigError(location, entry.key,
                        absl::StrCat("missing value for key '", entry.key,
                                     "'; expected ", entry.key, "=VALUE"));
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace train
}  // namespace umbra
