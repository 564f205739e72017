// Each metric against values computed here on random predictions, over
// several batches; hand-written small cases; names, errors and cxxnet's
// printed form.
#include "train/metrics/metric.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "train/metrics/metric_set.h"

namespace umbra {
namespace metrics {
namespace {

// what() of the MetricError `fn()` throws; a test failure and "" when it
// throws nothing.
template <typename Fn>
std::string MetricErrorOf(Fn fn) {
  try {
    fn();
  } catch (const MetricError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a MetricError";
  return "";
}

// A (rows, cols) matrix in a vector, viewed as a Tensor.
struct Matrix {
  std::vector<float> values;
  index_t rows, cols;
  Matrix(index_t r, index_t c) : values(r * c), rows(r), cols(c) {}
  float& at(index_t i, index_t j) { return values[i * cols + j]; }
  Tensor<cpu, 2, float> View() {
    return Tensor<cpu, 2, float>(values.data(), Shape2(rows, cols));
  }
  Tensor<cpu, 2, float> Rows(index_t begin, index_t end) {
    return Tensor<cpu, 2, float>(values.data() + begin * cols,
                                 Shape2(end - begin, cols));
  }
};

// Softmax-like random scores (rows sum to 1) and random class labels.
struct Batch {
  Matrix scores;
  Matrix labels;
  Batch(index_t rows, index_t classes, unsigned seed)
      : scores(rows, classes), labels(rows, 1) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> uniform(0.01f, 1.0f);
    std::uniform_int_distribution<int> label(0, classes - 1);
    for (index_t i = 0; i < rows; ++i) {
      float sum = 0;
      for (index_t j = 0; j < classes; ++j)
        sum += scores.at(i, j) = uniform(gen);
      for (index_t j = 0; j < classes; ++j) scores.at(i, j) /= sum;
      labels.at(i, 0) = static_cast<float>(label(gen));
    }
  }
};

// Adds the rows in two batches, as a trainer would.
double InTwoBatches(Metric* metric, Matrix* scores, Matrix* labels) {
  metric->Clear();
  const index_t half = scores->rows / 2;
  metric->Add(scores->Rows(0, half), labels->Rows(0, half));
  metric->Add(scores->Rows(half, scores->rows),
              labels->Rows(half, labels->rows));
  EXPECT_EQ(metric->rows(), scores->rows);
  return metric->Value();
}

TEST(Metric, ErrorLoglossAndRecallOnRandomScores) {
  Batch b(50, 7, 11);
  double errors = 0, logloss = 0, rec3 = 0;
  for (index_t i = 0; i < 50; ++i) {
    const int y = static_cast<int>(b.labels.at(i, 0));
    int best = 0, above = 0;
    for (int j = 0; j < 7; ++j) {
      if (b.scores.at(i, j) > b.scores.at(i, best)) best = j;
      if (b.scores.at(i, j) > b.scores.at(i, y)) ++above;
    }
    errors += best != y;
    logloss += -std::log(static_cast<double>(b.scores.at(i, y)));
    rec3 += above < 3;
  }
  EXPECT_NEAR(InTwoBatches(CreateMetric("error").get(), &b.scores, &b.labels),
              errors / 50, 1e-12);
  EXPECT_NEAR(InTwoBatches(CreateMetric("logloss").get(), &b.scores, &b.labels),
              logloss / 50, 1e-12);
  EXPECT_NEAR(InTwoBatches(CreateMetric("rec@3").get(), &b.scores, &b.labels),
              rec3 / 50, 1e-12);
  EXPECT_EQ(InTwoBatches(CreateMetric("rec@7").get(), &b.scores, &b.labels),
            1.0);
}

TEST(Metric, RmseOnRandomValues) {
  Matrix p(30, 3), y(30, 3);
  std::mt19937 gen(5);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  double sum = 0;
  for (index_t i = 0; i < 30; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      p.at(i, j) = normal(gen);
      y.at(i, j) = normal(gen);
      const double d = static_cast<double>(p.at(i, j)) - y.at(i, j);
      sum += d * d;
    }
  }
  EXPECT_NEAR(InTwoBatches(CreateMetric("rmse").get(), &p, &y),
              std::sqrt(sum / 30), 1e-12);
}

TEST(Metric, HandComputedCases) {
  Matrix p(4, 3), y(4, 1);
  p.values = {0.1f, 0.7f, 0.2f,   // label 1: right
              0.5f, 0.4f, 0.1f,   // label 1: wrong, rank 2
              0.3f, 0.3f, 0.4f,   // label 0: wrong, ties 0 and 1, rank 2
              0.2f, 0.2f, 0.6f};  // label 1: wrong, rank 3 (ties by index)
  y.values = {1, 1, 0, 1};
  auto error = CreateMetric("error");
  error->Add(p.View(), y.View());
  EXPECT_DOUBLE_EQ(error->Value(), 0.75);
  auto rec2 = CreateMetric("rec@2");
  rec2->Add(p.View(), y.View());
  EXPECT_DOUBLE_EQ(rec2->Value(), 0.75);
  auto logloss = CreateMetric("logloss");
  logloss->Add(p.View(), y.View());
  EXPECT_NEAR(
      logloss->Value(),
      -(std::log(0.7f) + std::log(0.4f) + std::log(0.3f) + std::log(0.2f)) / 4,
      1e-7);

  // One column: error counts p > 0 as class 1; logloss is binary.
  Matrix q(3, 1), z(3, 1);
  q.values = {0.8f, -0.2f, 0.3f};
  z.values = {1, 1, 0};
  auto binary_error = CreateMetric("error");
  binary_error->Add(q.View(), z.View());
  EXPECT_DOUBLE_EQ(binary_error->Value(), 2.0 / 3);
  Matrix r(2, 1), t(2, 1);
  r.values = {0.8f, 0.0f};  // 0 is clipped to 1e-15
  t.values = {1, 0};
  auto binary_logloss = CreateMetric("logloss");
  binary_logloss->Add(r.View(), t.View());
  EXPECT_NEAR(binary_logloss->Value(),
              -(std::log(0.8f) + std::log(1 - 1e-15)) / 2, 1e-7);

  // Several labels per row for rec@k: hits / labels.
  Matrix s(1, 4), multi(1, 2);
  s.values = {0.1f, 0.4f, 0.3f, 0.2f};
  multi.values = {1, 3};
  auto rec2_multi = CreateMetric("rec@2");
  rec2_multi->Add(s.View(), multi.View());
  EXPECT_DOUBLE_EQ(rec2_multi->Value(), 0.5);
}

TEST(Metric, EmptyIsNanAndClearForgets) {
  auto error = CreateMetric("error");
  EXPECT_TRUE(std::isnan(error->Value()));
  Batch b(4, 3, 1);
  error->Add(b.scores.View(), b.labels.View());
  error->Clear();
  EXPECT_EQ(error->rows(), 0);
  EXPECT_TRUE(std::isnan(error->Value()));
}

TEST(Metric, NamesAndErrors) {
  EXPECT_EQ(ListMetrics(),
            (std::vector<std::string>{"error", "logloss", "rec@k", "rmse"}));
  EXPECT_EQ(CreateMetric("rec@10")->name(), "rec@10");
  EXPECT_EQ(MetricErrorOf([] { CreateMetric("eror"); }),
            "unknown metric 'eror'; did you mean 'error'? Known metrics: "
            "error, logloss, rec@k, rmse");
  EXPECT_EQ(MetricErrorOf([] { CreateMetric("rec@0"); }),
            "metric 'rec@0': k must be a whole number of at least 1, as in "
            "rec@5");
  EXPECT_EQ(MetricErrorOf([] { CreateMetric("rec@"); }),
            "metric 'rec@': k must be a whole number of at least 1, as in "
            "rec@5");

  Batch b(2, 3, 2);
  b.labels.values = {0, 3};
  EXPECT_EQ(MetricErrorOf([&] {
              CreateMetric("error")->Add(b.scores.View(), b.labels.View());
            }),
            "metric 'error': label 3 is not a class index in [0, 3)");
  EXPECT_EQ(MetricErrorOf([&] {
              CreateMetric("rec@4")->Add(b.scores.View(), b.labels.View());
            }),
            "metric 'rec@4': predictions have 3 columns, fewer than k = 4");
  EXPECT_EQ(MetricErrorOf([&] {
              CreateMetric("rmse")->Add(b.scores.View(), b.labels.View());
            }),
            "metric 'rmse': predictions have 3 columns but labels 1; rmse "
            "needs one target per output");
  EXPECT_EQ(MetricErrorOf([&] {
              CreateMetric("error")->Add(b.scores.View(), b.labels.Rows(0, 1));
            }),
            "metric 'error': predictions have 2 rows but labels 1");
}

TEST(MetricSet, PrintsCxxnetsForm) {
  EXPECT_EQ(FormatMetric("train", "error", 0.1021), "train-error:0.1021");
  EXPECT_EQ(FormatMetric("test", "rmse", 1.0 / 3), "test-rmse:0.333333");

  Matrix p(4, 2), y(4, 1), age(4, 2);
  p.values = {0.9f, 0.1f, 0.2f, 0.8f, 0.6f, 0.4f, 0.3f, 0.7f};
  y.values = {0, 1, 1, 1};
  age.values = {0.9f, 0.1f, 0.2f, 0.8f, 0.6f, 0.4f, 0.3f, 0.7f};
  MetricSet set;
  set.AddMetric("error");
  set.AddMetric("rmse", "age");
  std::map<std::string, Tensor<cpu, 2, float>> fields = {{"label", y.View()},
                                                         {"age", age.View()}};
  set.Add(p.View(), fields);
  EXPECT_EQ(set.Print("train"), "\ttrain-error:0.25\ttrain-rmse[age]:0");
  ASSERT_EQ(set.Results().size(), 2u);
  EXPECT_EQ(set.Results()[1].label, "rmse[age]");
  set.Clear();
  EXPECT_EQ(set.Print("test"), "\ttest-error:nan\ttest-rmse[age]:nan");

  MetricSet missing;
  missing.AddMetric("logloss", "weight");
  EXPECT_EQ(MetricErrorOf([&] { missing.Add(p.View(), fields); }),
            "metric 'logloss': the batch has no label field 'weight'. "
            "Fields: age, label");
  EXPECT_THROW(missing.AddMetric("accuracy"), MetricError);
}

// The ranks of a data-parallel run each score their rows; their totals
// added up and set on any rank's set give the metrics of all the rows.
TEST(MetricSet, SummedTotalsGiveTheMetricsOfAllRows) {
  Batch b(40, 5, 23);
  std::mt19937 gen(29);
  const index_t split = 1 + gen() % 38;
  const std::vector<std::string> names = {"error", "logloss", "rec@2"};
  MetricSet whole, first, second;
  for (const std::string& name : names) {
    whole.AddMetric(name);
    first.AddMetric(name);
    second.AddMetric(name);
  }
  const auto add = [&](MetricSet* set, index_t begin, index_t end) {
    std::map<std::string, Tensor<cpu, 2, float>> fields = {
        {"label", b.labels.Rows(begin, end)}};
    set->Add(b.scores.Rows(begin, end), fields);
  };
  add(&whole, 0, 40);
  add(&first, 0, split);
  add(&second, split, 40);
  std::vector<double> totals = first.Totals();
  const std::vector<double> others = second.Totals();
  ASSERT_EQ(totals.size(), 2 * names.size());
  for (size_t i = 0; i < totals.size(); ++i) totals[i] += others[i];
  second.SetTotals(totals);
  const std::vector<MetricResult> want = whole.Results(),
                                  got = second.Results();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i].value, want[i].value, 1e-12) << want[i].label;
  }
  EXPECT_THROW(second.SetTotals({1.0}), MetricError);
}

}  // namespace
}  // namespace metrics
}  // namespace umbra
