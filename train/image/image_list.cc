#include "train/image/image_list.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "param/quote.h"
#include "train/data/csv_file.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

[[noreturn]] void ThrowLineError(const std::string& path, int line,
                                 const std::string& detail) {
  throw DataError(absl::StrCat(path, ":", line, ": ", detail));
}

// Parses a whole field as an unsigned decimal integer (no sign, no spaces).
bool ParseIndex(absl::string_view field, std::uint64_t* value) {
  const char* end = field.data() + field.size();
  const std::from_chars_result result =
      std::from_chars(field.data(), end, *value);
  return !field.empty() && result.ec == std::errc() && result.ptr == end;
}

std::string Plural(int count, absl::string_view noun) {
  return absl::StrCat(count, " ", noun, count == 1 ? "" : "s");
}

}  // namespace

void ForEachListLine(
    absl::string_view text, const std::string& path,
    const std::function<void(int line_number, absl::string_view line)>& visit) {
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (line.size() > kMaxListLineBytes) {
      ThrowLineError(
          path, line_number,
          absl::StrCat("line of ", line.size(),
                       " bytes, longer than the limit of ", kMaxListLineBytes,
                       " bytes (not a text list file?): starts with ",
                       QuoteShort(line)));
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    visit(line_number, line);
  }
}

std::vector<ImageListEntry> ParseImageListText(absl::string_view text,
                                               const std::string& path,
                                               int label_width) {
  if (label_width < 1) {
    throw DataError(absl::StrCat("'", path, "': label_width must be at least 1",
                                 ", got ", label_width),
                    "label_width");
  }
  const std::string layout =
      absl::StrCat("index, ", Plural(label_width, "label"), ", path");
  std::vector<ImageListEntry> entries;
  ForEachListLine(text, path, [&](int line_number, absl::string_view line) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    const int count = static_cast<int>(fields.size());
    if (count < 2) {
      const bool spaces = line.find(' ') != absl::string_view::npos;
      ThrowLineError(
          path, line_number,
          absl::StrCat("expected ", label_width + 2, " tab-separated fields (",
                       layout, "), got 1",
                       spaces ? " (the fields must be separated by tabs, "
                                "not spaces)"
                              : "",
                       ": ", QuoteShort(line)));
    }
    if (count - 2 != label_width) {
      ThrowLineError(path, line_number,
                     absl::StrCat("expected ", Plural(label_width, "label"),
                                  " (label_width = ", label_width, "), got ",
                                  count - 2, ": ", QuoteShort(line)));
    }
    ImageListEntry entry;
    entry.line = line_number;
    const absl::string_view index = absl::StripAsciiWhitespace(fields[0]);
    if (!ParseIndex(index, &entry.index)) {
      ThrowLineError(path, line_number,
                     absl::StrCat("field 1 (index): expected an unsigned "
                                  "integer, got ",
                                  QuoteShort(index)));
    }
    entry.labels.resize(label_width);
    for (int i = 0; i < label_width; ++i) {
      const absl::string_view label = absl::StripAsciiWhitespace(fields[1 + i]);
      if (!ParseFiniteFloat(label, &entry.labels[i])) {
        ThrowLineError(path, line_number,
                       absl::StrCat("field ", 2 + i, " (label ", i + 1,
                                    "): expected a finite number, got ",
                                    QuoteShort(label)));
      }
    }
    const absl::string_view image_path =
        absl::StripAsciiWhitespace(fields.back());
    if (image_path.empty()) {
      ThrowLineError(path, line_number,
                     absl::StrCat("field ", count,
                                  " (path): expected an image path, got "
                                  "nothing: ",
                                  QuoteShort(line)));
    }
    entry.path = std::string(image_path);
    entries.push_back(std::move(entry));
  });
  if (entries.empty()) {
    throw DataError(absl::StrCat(
        "'", path, "' holds no images: the list is empty or only blank lines ",
        "(expected lines of ", layout, ", separated by tabs)"));
  }
  return entries;
}

std::vector<ImageListEntry> ParseImageList(const std::string& path,
                                           int label_width) {
  return ParseImageListText(ReadFileBytes(path), path, label_width);
}

void WriteImageList(const std::string& path,
                    const std::vector<ImageListEntry>& entries) {
  std::string text;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ImageListEntry& entry = entries[i];
    const auto fail = [&](const std::string& detail) {
      throw DataError(absl::StrCat("cannot write '", path, "': entry ", i + 1,
                                   " (index ", entry.index, "): ", detail));
    };
    const absl::string_view image_path = entry.path;
    if (image_path.empty() ||
        image_path.find_first_of("\t\r\n") != absl::string_view::npos ||
        absl::StripAsciiWhitespace(image_path) != image_path) {
      fail(absl::StrCat("the path ", QuoteShort(image_path),
                        " would not read back: it must be non-empty, hold no "
                        "tab or line break, and not start or end with "
                        "whitespace"));
    }
    if (entry.labels.empty()) {
      fail("no labels (a .lst line needs at least one)");
    }
    absl::StrAppend(&text, entry.index, "\t");
    for (std::size_t j = 0; j < entry.labels.size(); ++j) {
      const float label = entry.labels[j];
      if (!std::isfinite(label)) {
        fail(absl::StrCat("label ", j + 1, " is ", absl::StrFormat("%g", label),
                          ", expected a finite number"));
      }
      // The shortest text that reads back as the same float ("1", "0.1").
      char number[64];
      const std::to_chars_result printed =
          std::to_chars(number, number + sizeof(number), label);
      text.append(number, printed.ptr);
      text += '\t';
    }
    absl::StrAppend(&text, image_path, "\n");
  }
  WriteFileBytes(path, text);
}

}  // namespace train
}  // namespace umbra
