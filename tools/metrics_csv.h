// Reads the `model_dir/metrics.csv` files the trainer writes (round_log.h):
// a header `round,elapsed_s,images_per_s,<metric labels>` and one row of
// numbers per round.
//
// Example:
//
//   MetricsTable table = ReadMetricsCsv("models/mlp/metrics.csv");
//   std::vector<double> rounds = table.Column("round");
//   std::vector<std::string> labels = table.MetricLabels();  // train-error..
//
// Contracts: every row has as many cells as the header and every cell is a
// number (`nan` and `inf` allowed); otherwise ReadMetricsCsv throws
// std::runtime_error naming the file, the line and what was expected.
#ifndef UMBRA_TOOLS_METRICS_CSV_H_
#define UMBRA_TOOLS_METRICS_CSV_H_

#include <string>
#include <vector>

namespace umbra {
namespace tools {

struct MetricsTable {
  // The file it was read from.
  std::string path;
  std::vector<std::string> columns;
  // rows[i][j] is column j of row i.
  std::vector<std::vector<double>> rows;

  // The values of column `name`. Throws std::runtime_error naming the
  // columns there are when there is none.
  std::vector<double> Column(const std::string& name) const;
  // The metric columns: every column but round, elapsed_s and images_per_s.
  std::vector<std::string> MetricLabels() const;
};

MetricsTable ParseMetricsCsv(const std::string& text, const std::string& path);
// Reads and parses the file at `path`.
MetricsTable ReadMetricsCsv(const std::string& path);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_METRICS_CSV_H_
