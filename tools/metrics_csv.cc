#include "tools/metrics_csv.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {
namespace tools {
namespace {

constexpr const char* kFixedColumns[] = {"round", "elapsed_s", "images_per_s"};

std::vector<std::string> SplitCells(const std::string& line) {
  std::vector<std::string> cells = absl::StrSplit(line, ',');
  for (std::string& cell : cells) {
    cell = std::string(absl::StripAsciiWhitespace(cell));
  }
  return cells;
}

}  // namespace

std::vector<double> MetricsTable::Column(const std::string& name) const {
  for (size_t j = 0; j < columns.size(); ++j) {
    if (columns[j] != name) continue;
    std::vector<double> values;
    for (const auto& row : rows) values.push_back(row[j]);
    return values;
  }
  throw std::runtime_error(
      absl::StrCat("metrics file '", path, "' has no column ", QuoteShort(name),
                   param::UnknownNameSuggestion(name, columns, "Its columns",
                                                "the file's first line")));
}

std::vector<std::string> MetricsTable::MetricLabels() const {
  std::vector<std::string> labels;
  for (const std::string& column : columns) {
    bool fixed = false;
    for (const char* name : kFixedColumns) fixed = fixed || column == name;
    if (!fixed) labels.push_back(column);
  }
  return labels;
}

MetricsTable ParseMetricsCsv(const std::string& text, const std::string& path) {
  MetricsTable table;
  table.path = path;
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    const std::string where = absl::StrCat(path, ":", line_number, ": ");
    std::vector<std::string> cells = SplitCells(line);
    if (table.columns.empty()) {
      if (cells.empty() || cells[0] != "round") {
        throw std::runtime_error(
            absl::StrCat(where,
                         "not a metrics.csv header: expected "
                         "'round,elapsed_s,images_per_s,<metrics>', got '",
                         line, "'"));
      }
      table.columns = cells;
      continue;
    }
    if (cells.size() != table.columns.size()) {
      throw std::runtime_error(
          absl::StrCat(where, "expected ", table.columns.size(),
                       " cells as in the header, got ", cells.size()));
    }
    std::vector<double> row;
    for (size_t j = 0; j < cells.size(); ++j) {
      double value = 0.0;
      if (!absl::SimpleAtod(cells[j], &value)) {
        throw std::runtime_error(
            absl::StrCat(where, "column '", table.columns[j], "' holds '",
                         cells[j], "', expected a number"));
      }
      row.push_back(value);
    }
    table.rows.push_back(std::move(row));
  }
  if (table.columns.empty()) {
    throw std::runtime_error(absl::StrCat("metrics file '", path,
                                          "' is empty (no header, no rounds)"));
  }
  return table;
}

MetricsTable ReadMetricsCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(absl::StrCat("cannot open metrics file '", path,
                                          "': ", std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  return ParseMetricsCsv(text.str(), path);
}

}  // namespace tools
}  // namespace umbra
