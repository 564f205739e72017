#include "train/metrics/metric.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace metrics {

double Metric::Value() const {
  if (rows_ == 0) return std::numeric_limits<double>::quiet_NaN();
  return sum_ / static_cast<double>(rows_);
}

void Metric::Fail(const std::string& what) const {
  throw MetricError(absl::StrCat("metric '", name_, "': ", what));
}

void Metric::CheckRows(size_t prediction_rows, size_t label_rows) const {
  if (prediction_rows != label_rows) {
    Fail(absl::StrCat("predictions have ", prediction_rows, " rows but labels ",
                      label_rows));
  }
}

}  // namespace metrics
}  // namespace umbra
