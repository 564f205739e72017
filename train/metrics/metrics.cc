// The metrics of metric.h and CreateMetric.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "param/type_registry.h"
#include "train/metrics/metric.h"

namespace umbra {
namespace metrics {
namespace {

constexpr double kLogLossClip = 1e-15;

// Label `value` as a class index in [0, classes); Fail()s otherwise.
class ClassMetric : public Metric {
 public:
  using Metric::Metric;

 protected:
  size_t ClassIndex(double value, size_t classes) const {
    if (!(value >= 0.0) || value != std::floor(value) ||
        value >= static_cast<double>(classes)) {
      Fail(absl::StrCat("label ", value, " is not a class index in [0, ",
                        classes, ")"));
    }
    return static_cast<size_t>(value);
  }
  void RequireLabel(const std::vector<double>& label) const {
    if (label.empty()) Fail("labels have no column");
  }
};

class ErrorMetric : public ClassMetric {
 public:
  ErrorMetric() : ClassMetric("error") {}

 protected:
  double Score(const std::vector<double>& prediction,
               const std::vector<double>& label) override {
    RequireLabel(label);
    size_t predicted = 0;
    if (prediction.size() == 1) {
      predicted = prediction[0] > 0.0 ? 1 : 0;
      return predicted == ClassIndex(label[0], 2) ? 0.0 : 1.0;
    }
    for (size_t j = 1; j < prediction.size(); ++j) {
      if (prediction[j] > prediction[predicted]) predicted = j;
    }
    return predicted == ClassIndex(label[0], prediction.size()) ? 0.0 : 1.0;
  }
};

class LogLossMetric : public ClassMetric {
 public:
  LogLossMetric() : ClassMetric("logloss") {}

 protected:
  double Score(const std::vector<double>& prediction,
               const std::vector<double>& label) override {
    RequireLabel(label);
    if (prediction.size() == 1) {
      const double p = Clip(prediction[0]);
      const double y = label[0];
      return -(y * std::log(p) + (1.0 - y) * std::log(1.0 - p));
    }
    return -std::log(Clip(prediction[ClassIndex(label[0], prediction.size())]));
  }

 private:
  static double Clip(double p) {
    return std::max(std::min(p, 1.0 - kLogLossClip), kLogLossClip);
  }
};

class RmseMetric : public Metric {
 public:
  RmseMetric() : Metric("rmse") {}
  double Value() const override { return std::sqrt(Metric::Value()); }

 protected:
  double Score(const std::vector<double>& prediction,
               const std::vector<double>& label) override {
    if (prediction.size() != label.size()) {
      Fail(absl::StrCat("predictions have ", prediction.size(),
                        " columns but labels ", label.size(),
                        "; rmse needs one target per output"));
    }
    double sum = 0.0;
    for (size_t j = 0; j < label.size(); ++j) {
      const double d = prediction[j] - label[j];
      sum += d * d;
    }
    return sum;
  }
};

class RecallMetric : public ClassMetric {
 public:
  RecallMetric(std::string name, size_t k)
      : ClassMetric(std::move(name)), k_(k) {}

 protected:
  double Score(const std::vector<double>& prediction,
               const std::vector<double>& label) override {
    RequireLabel(label);
    if (prediction.size() < k_) {
      Fail(absl::StrCat("predictions have ", prediction.size(),
                        " columns, fewer than k = ", k_));
    }
    order_.resize(prediction.size());
    std::iota(order_.begin(), order_.end(), size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return prediction[a] > prediction[b];
    });
    size_t hits = 0;
    for (double value : label) {
      const size_t target = ClassIndex(value, prediction.size());
      if (std::find(order_.begin(), order_.begin() + k_, target) !=
          order_.begin() + k_) {
        ++hits;
      }
    }
    return static_cast<double>(hits) / static_cast<double>(label.size());
  }

 private:
  size_t k_;
  std::vector<size_t> order_;
};

}  // namespace

std::vector<std::string> ListMetrics() {
  return {"error", "logloss", "rec@k", "rmse"};
}

std::unique_ptr<Metric> CreateMetric(absl::string_view name) {
  if (name == "error") return std::make_unique<ErrorMetric>();
  if (name == "logloss") return std::make_unique<LogLossMetric>();
  if (name == "rmse") return std::make_unique<RmseMetric>();
  if (absl::StartsWith(name, "rec@")) {
    int k = 0;
    if (!absl::SimpleAtoi(name.substr(4), &k) || k < 1) {
      throw MetricError(absl::StrCat(
          "metric '", name,
          "': k must be a whole number of at least 1, as in rec@5"));
    }
    return std::make_unique<RecallMetric>(std::string(name),
                                          static_cast<size_t>(k));
  }
  throw MetricError(UnknownNameMessage("metric", "metrics", "//train/metrics",
                                       name, ListMetrics()));
}

}  // namespace metrics
}  // namespace umbra
