// Evaluation metrics (cxxnet's utils/metric.h): each one accumulates over
// batches - Add(predictions, labels) per batch - and then reports Value().
// Create them by name with CreateMetric:
//
//   error      share of rows whose arg-max prediction is not the label; a
//              single-column prediction p counts as class 1 when p > 0
//   logloss    mean of -log p[label] (p clipped to [1e-15, 1 - 1e-15]); a
//              single column is a binary probability: -(y log p +
//              (1 - y) log(1 - p))
//   rmse       sqrt(sum over rows of sum_j (p_j - y_j)^2 / rows)
//   rec@k      mean over rows of (labels among the k highest predictions) /
//              (labels of the row), e.g. `metric = rec@5`
//
// Rows are instances; predictions are (rows, outputs), labels (rows,
// label width): one class index per row for error, logloss and a single
// rec@k label, one target per output for rmse.
//
// Differences from cxxnet: rmse takes the root (cxxnet printed the mean
// squared error under the name rmse); rec@k breaks ties of scores by the
// lower index (cxxnet shuffled them at random); a label outside the
// prediction's columns is an error (cxxnet read past the row).
//
// Example:
//
//   std::unique_ptr<Metric> error = CreateMetric("error");
//   for (each batch) error->Add(scores, labels);   // Tensor<cpu, 2, float>
//   double e = error->Value();                     // NaN before any row
#ifndef UMBRA_TRAIN_METRICS_METRIC_H_
#define UMBRA_TRAIN_METRICS_METRIC_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tensor/tensor.h"

namespace umbra {
namespace metrics {

// A metric that cannot be made (an unknown name, a bad k) or cannot score
// the rows it is given; the message starts with the metric, "metric
// 'rec@5': ...", or names the unknown one.
class MetricError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Metric {
 public:
  explicit Metric(std::string name) : name_(std::move(name)) {}
  virtual ~Metric() = default;

  // The name it was created with, e.g. "rec@5".
  const std::string& name() const { return name_; }

  // Forgets every row added so far.
  void Clear() {
    sum_ = 0.0;
    rows_ = 0;
  }
  // Adds the rows of one batch. `predictions` and `labels` have the same
  // number of rows. Throws MetricError "metric '<name>': ..." for rows that
  // do not fit the metric (row counts, label out of range, too few columns).
  template <typename DType>
  void Add(const Tensor<cpu, 2, DType>& predictions,
           const Tensor<cpu, 2, DType>& labels);

  // The metric over every row added since the last Clear; NaN when none.
  virtual double Value() const;
  // Rows added since the last Clear.
  int64_t rows() const { return rows_; }
  // What Value() is computed from: the sum of the rows' scores, and the
  // rows. Setting the totals of several metrics' added together (the
  // ranks' of a data-parallel run) gives the metric over all their rows.
  double sum() const { return sum_; }
  void SetTotals(double sum, int64_t rows) {
    sum_ = sum;
    rows_ = rows;
  }

 protected:
  // The contribution of one row; Value() is their mean unless overridden.
  virtual double Score(const std::vector<double>& prediction,
                       const std::vector<double>& label) = 0;
  // Throws MetricError "metric '<name>': <what>".
  [[noreturn]] void Fail(const std::string& what) const;

 private:
  void CheckRows(size_t prediction_rows, size_t label_rows) const;

  std::string name_;
  double sum_ = 0.0;
  int64_t rows_ = 0;
  std::vector<double> prediction_row_;
  std::vector<double> label_row_;
};

template <typename DType>
void Metric::Add(const Tensor<cpu, 2, DType>& predictions,
                 const Tensor<cpu, 2, DType>& labels) {
  CheckRows(predictions.size(0), labels.size(0));
  for (index_t i = 0; i < predictions.size(0); ++i) {
    prediction_row_.assign(predictions[i].dptr_,
                           predictions[i].dptr_ + predictions.size(1));
    label_row_.assign(labels[i].dptr_, labels[i].dptr_ + labels.size(1));
    sum_ += Score(prediction_row_, label_row_);
    ++rows_;
  }
}

// A new metric by name: error, logloss, rmse, rec@k (k >= 1). Throws
// MetricError for an unknown name (with the closest and the known names) or
// a bad k.
std::unique_ptr<Metric> CreateMetric(absl::string_view name);

// The known metric names, sorted, rec@k written as "rec@k".
std::vector<std::string> ListMetrics();

}  // namespace metrics
}  // namespace umbra

#endif  // UMBRA_TRAIN_METRICS_METRIC_H_
