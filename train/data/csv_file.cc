#include "train/data/csv_file.h"

#include <cmath>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/charconv.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "param/quote.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

// The longest CSV line read (a row of 224 x 224 x 3 values is about 2 MB).
constexpr std::size_t kMaxCsvLineBytes = std::size_t{64} << 20;

// Thrown inside ForEachFileLine, whose caller adds "csv: key 'filename': ".
[[noreturn]] void ThrowRowError(const std::string& path, int line,
                                const std::string& detail) {
  throw DataError(absl::StrCat(path, ":", line, ": ", detail));
}

}  // namespace

bool ParseFiniteFloat(absl::string_view field, float* value) {
  // Debian's Abseil still reads "0x10" as hex in general format.
  if (field.find_first_of("xX") != absl::string_view::npos) return false;
  float parsed = 0.0f;
  const absl::from_chars_result result =
      absl::from_chars(field.data(), field.data() + field.size(), parsed);
  if (field.empty() || result.ec != std::errc() ||
      result.ptr != field.data() + field.size() || !std::isfinite(parsed)) {
    return false;
  }
  *value = parsed;
  return true;
}

std::unique_ptr<MemoryDataset> LoadCsv(const std::string& path, bool has_header,
                                       index_t label_width,
                                       const std::vector<int>& input_shape) {
  index_t columns = 0;
  if (!input_shape.empty()) {
    if (input_shape.size() != 3) {
      throw DataError(
          absl::StrCat("csv: key 'input_shape': expected channel,height,"
                       "width, got ",
                       input_shape.size(), " numbers"),
          "input_shape");
    }
    columns =
        label_width + index_t{input_shape[0]} * input_shape[1] * input_shape[2];
  }
  std::vector<float> values;
  index_t rows = 0;
  bool header_pending = has_header;
  // Streamed: memory holds the values and one line, never the file.
  const auto parse_row = [&](int line_number, absl::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) return;
    if (header_pending) {
      header_pending = false;
      return;
    }
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
    const index_t count = static_cast<index_t>(fields.size());
    if (columns == 0) {
      if (count <= label_width) {
        ThrowRowError(path, line_number,
                      absl::StrCat("expected more than label_width = ",
                                   label_width, " columns, got ", count));
      }
      columns = count;
    }
    if (count != columns) {
      ThrowRowError(
          path, line_number,
          absl::StrCat("expected ", columns, " columns (", label_width,
                       " label", label_width == 1 ? "" : "s", " + ",
                       columns - label_width, " data",
                       input_shape.empty() ? ", as in the first row"
                                           : " from input_shape",
                       "), got ", count));
    }
    for (index_t i = 0; i < count; ++i) {
      const absl::string_view field = absl::StripAsciiWhitespace(fields[i]);
      float value = 0;
      if (!ParseFiniteFloat(field, &value)) {
        ThrowRowError(
            path, line_number,
            absl::StrCat("column ", i + 1, ": expected a finite number, got ",
                         QuoteShort(field)));
      }
      values.push_back(value);
    }
    ++rows;
  };
  WithKeyContext("csv", "filename",
                 [&] { ForEachFileLine(path, kMaxCsvLineBytes, parse_row); });
  if (rows == 0) {
    throw DataError(
        absl::StrCat("csv: key 'filename': '", path, "' has no data rows"),
        "filename");
  }
  const index_t width = columns - label_width;
  const Shape<3> shape =
      input_shape.empty()
          ? Shape3(1, 1, width)
          : Shape3(input_shape[0], input_shape[1], input_shape[2]);
  auto set = std::make_unique<MemoryDataset>(shape, label_width, rows,
                                             absl::StrCat("csv '", path, "'"));
  Tensor<cpu, 2, float> data = set->data();
  Tensor<cpu, 2, float> labels = set->labels();
  for (index_t r = 0; r < rows; ++r) {
    const float* row = values.data() + r * columns;
    for (index_t j = 0; j < label_width; ++j) labels[r][j] = row[j];
    for (index_t j = 0; j < width; ++j) data[r][j] = row[label_width + j];
  }
  return set;
}

}  // namespace train
}  // namespace umbra
