#include "param/json.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "param/param_error.h"
#include "param/quote.h"

namespace umbra {
namespace param {
namespace {

// Reads one JSON object of strings; every read is bounds-checked.
class JsonObjectReader {
 public:
  JsonObjectReader(absl::string_view json, absl::string_view context)
      : json_(json), context_(context) {}

  ParamKwargs Read() {
    ParamKwargs pairs;
    std::set<std::string> keys;
    SkipWhitespace();
    Expect('{', "expected '{' to open the object");
    SkipWhitespace();
    if (Peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        SkipWhitespace();
        const std::size_t key_pos = pos_;
        std::string key = ReadString("expected a '\"'-quoted key");
        if (!keys.insert(key).second) {
          Fail(key_pos, absl::StrCat("duplicate key ", QuoteShort(key)));
        }
        SkipWhitespace();
        Expect(':', "expected ':' after a key");
        SkipWhitespace();
        std::string value = ReadString("expected a '\"'-quoted string value");
        pairs.emplace_back(std::move(key), std::move(value));
        SkipWhitespace();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        Expect('}', "expected ',' or '}' after a value");
        break;
      }
    }
    SkipWhitespace();
    if (pos_ != json_.size()) Fail(pos_, "unexpected text after the object");
    return pairs;
  }

 private:
  // The byte at the read position, or -1 at the end.
  int Peek() const {
    return pos_ < json_.size() ? static_cast<unsigned char>(json_[pos_]) : -1;
  }

  void SkipWhitespace() {
    while (pos_ < json_.size() &&
           (json_[pos_] == ' ' || json_[pos_] == '\t' || json_[pos_] == '\n' ||
            json_[pos_] == '\r')) {
      ++pos_;
    }
  }

  void Expect(char c, absl::string_view what) {
    if (Peek() != static_cast<unsigned char>(c)) Fail(pos_, what);
    ++pos_;
  }

  [[noreturn]] void Fail(std::size_t pos, absl::string_view what) const {
    throw ParamError(
        absl::StrCat(context_, ": invalid JSON at byte ", pos, ": ", what));
  }

  // Four hex digits of a \u escape.
  std::uint32_t ReadHex4() {
    if (json_.size() - pos_ < 4)
      Fail(pos_, "expected four hex digits after \\u");
    std::uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = json_[pos_];
      int digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        Fail(pos_, "expected four hex digits after \\u");
      }
      code = code * 16 + static_cast<std::uint32_t>(digit);
      ++pos_;
    }
    return code;
  }

  static void AppendUtf8(std::uint32_t code, std::string* out) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code >> 6)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // A \uXXXX escape (the "\u" already read), with its low surrogate if any.
  void ReadUnicodeEscape(std::size_t escape_pos, std::string* out) {
    std::uint32_t code = ReadHex4();
    if (code >= 0xDC00 && code <= 0xDFFF)
      Fail(escape_pos, "unpaired low surrogate");
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (json_.size() - pos_ < 2 || json_[pos_] != '\\' ||
          json_[pos_ + 1] != 'u') {
        Fail(escape_pos,
             "high surrogate without a following \\u low surrogate");
      }
      pos_ += 2;
      const std::uint32_t low = ReadHex4();
      if (low < 0xDC00 || low > 0xDFFF)
        Fail(escape_pos, "high surrogate without a low one");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(code, out);
  }

  std::string ReadString(absl::string_view what) {
    Expect('"', what);
    std::string out;
    while (true) {
      if (pos_ >= json_.size()) Fail(pos_, "unterminated string");
      const char c = json_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        Fail(pos_, "raw control character in a string (escape it)");
      }
      if (c != '\\') {
        out.push_back(c);
        ++pos_;
        continue;
      }
      const std::size_t escape_pos = pos_;
      ++pos_;
      if (pos_ >= json_.size()) Fail(pos_, "unterminated string");
      const char e = json_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          ReadUnicodeEscape(escape_pos, &out);
          break;
        default:
          Fail(escape_pos, "unknown escape");
      }
    }
  }

  absl::string_view json_;
  absl::string_view context_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string JsonQuote(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string WriteJsonObject(const ParamKwargs& kwargs) {
  std::string out = "{";
  for (const auto& [key, value] : kwargs) {
    if (out.size() > 1) out += ", ";
    absl::StrAppend(&out, JsonQuote(key), ": ", JsonQuote(value));
  }
  out.push_back('}');
  return out;
}

ParamKwargs ReadJsonObject(absl::string_view json, absl::string_view context) {
  return JsonObjectReader(json, context).Read();
}

}  // namespace param
}  // namespace umbra
