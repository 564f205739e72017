// MetricSet: the metrics a config asks for (`metric = error`, one line per
// metric, or cxxnet's `metric[field,node] = rec@5` for another label field),
// evaluated together on one data set, and printed in cxxnet's form
// `SET-METRIC:VALUE`, e.g. `train-error:0.1021` or
// `test-rmse[age]:3.2` for a label field other than "label".
//
// The trainer keeps one set for the training data (filled during the round
// when eval_train = 1) and one per `eval = NAME` block (filled by a pass
// over that iterator after each round), and prints them on the round line.
//
// Example:
//
//   MetricSet train_metrics;
//   train_metrics.AddMetric("error");
//   train_metrics.AddMetric("rec@5");
//   train_metrics.Clear();                          // start of a round
//   train_metrics.Add(scores, labels.fields);       // after each batch
//   std::cout << "[" << round << "]" << train_metrics.Print("train");
//   // [1]	train-error:0.1021	train-rec@5:0.97
#ifndef UMBRA_TRAIN_METRICS_METRIC_SET_H_
#define UMBRA_TRAIN_METRICS_METRIC_SET_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "param/edit_distance.h"
#include "param/quote.h"
#include "tensor/tensor.h"
#include "train/metrics/metric.h"

namespace umbra {
namespace metrics {

// "train-error:0.1021": the value with six significant digits, as cxxnet
// printed it (an ostream's default).
std::string FormatMetric(absl::string_view set_name,
                         absl::string_view metric_label, double value);

// One metric's result, for logs and CSV files.
struct MetricResult {
  // "error", or "rmse[age]" for label field "age".
  std::string label;
  double value;
};

class MetricSet {
 public:
  // Adds metric `name` (CreateMetric) read against label field `field`.
  // Throws MetricError for an unknown name.
  void AddMetric(absl::string_view name, std::string field = "label");
  size_t size() const { return metrics_.size(); }
  bool empty() const { return metrics_.empty(); }

  // Clears every metric.
  void Clear();

  // Adds one batch: `predictions[i]` is the output metric i reads (cxxnet's
  // node per metric); `labels` the batch's label fields by name. Throws
  // MetricError naming the metric for a missing field or mismatched rows.
  template <typename DType>
  void Add(const std::vector<Tensor<cpu, 2, DType>>& predictions,
           const std::map<std::string, Tensor<cpu, 2, DType>>& labels);
  // The same when every metric reads one output.
  template <typename DType>
  void Add(const Tensor<cpu, 2, DType>& predictions,
           const std::map<std::string, Tensor<cpu, 2, DType>>& labels) {
    Add(std::vector<Tensor<cpu, 2, DType>>(metrics_.size(), predictions),
        labels);
  }

  // Every metric's sum and rows (Metric::sum, rows), in the order added,
  // and the same set back: the ranks of a data-parallel run add their
  // totals up and set the sums.
  std::vector<double> Totals() const;
  void SetTotals(const std::vector<double>& totals);

  // Every metric's value, in the order added.
  std::vector<MetricResult> Results() const;
  // "\t<set>-<metric>:<value>" for every metric, concatenated (cxxnet's
  // MetricSet::Print), e.g. "\ttrain-error:0.1021\ttrain-logloss:0.35".
  std::string Print(absl::string_view set_name) const;

 private:
  struct Entry {
    std::unique_ptr<Metric> metric;
    std::string field;
  };
  std::vector<Entry> metrics_;
};

template <typename DType>
void MetricSet::Add(
    const std::vector<Tensor<cpu, 2, DType>>& predictions,
    const std::map<std::string, Tensor<cpu, 2, DType>>& labels) {
  if (predictions.size() != metrics_.size()) {
    throw MetricError(absl::StrCat("metrics: got ", predictions.size(),
                                   " prediction tensors for ", metrics_.size(),
                                   " metrics"));
  }
  for (size_t i = 0; i < metrics_.size(); ++i) {
    const Entry& entry = metrics_[i];
    auto it = labels.find(entry.field);
    if (it == labels.end()) {
      std::vector<std::string> fields;
      for (const auto& kv : labels) fields.push_back(kv.first);
      throw MetricError(absl::StrCat(
          "metric '", entry.metric->name(), "': the batch has no label field ",
          QuoteShort(entry.field), ". ",
          param::NameList(entry.field, fields, "Fields", "label_vec")));
    }
    entry.metric->Add(predictions[i], it->second);
  }
}

}  // namespace metrics
}  // namespace umbra

#endif  // UMBRA_TRAIN_METRICS_METRIC_SET_H_
