#include "train/metrics/metric_set.h"

#include <sstream>

namespace umbra {
namespace metrics {

std::string FormatMetric(absl::string_view set_name,
                         absl::string_view metric_label, double value) {
  std::ostringstream os;
  os << set_name << '-' << metric_label << ':' << value;
  return os.str();
}

void MetricSet::AddMetric(absl::string_view name, std::string field) {
  metrics_.push_back({CreateMetric(name), std::move(field)});
}

void MetricSet::Clear() {
  for (Entry& entry : metrics_) entry.metric->Clear();
}

std::vector<double> MetricSet::Totals() const {
  std::vector<double> totals;
  for (const Entry& entry : metrics_) {
    totals.push_back(entry.metric->sum());
    totals.push_back(static_cast<double>(entry.metric->rows()));
  }
  return totals;
}

void MetricSet::SetTotals(const std::vector<double>& totals) {
  if (totals.size() != 2 * metrics_.size()) {
    throw MetricError(absl::StrCat("metrics: got ", totals.size(),
                                   " totals for ", metrics_.size(),
                                   " metrics (two each)"));
  }
  for (size_t i = 0; i < metrics_.size(); ++i) {
    metrics_[i].metric->SetTotals(totals[2 * i],
                                  static_cast<int64_t>(totals[2 * i + 1]));
  }
}

std::vector<MetricResult> MetricSet::Results() const {
  std::vector<MetricResult> results;
  for (const Entry& entry : metrics_) {
    std::string label = entry.metric->name();
    if (entry.field != "label") absl::StrAppend(&label, "[", entry.field, "]");
    results.push_back({label, entry.metric->Value()});
  }
  return results;
}

std::string MetricSet::Print(absl::string_view set_name) const {
  std::string out;
  for (const MetricResult& result : Results()) {
    absl::StrAppend(&out, "\t",
                    FormatMetric(set_name, result.label, result.value));
  }
  return out;
}

}  // namespace metrics
}  // namespace umbra
