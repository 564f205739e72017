// Checks that Google Benchmark links and runs: a registered benchmark is
// executed and its counter reaches a custom reporter.
#include "benchmark/benchmark.h"

#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace {

void BM_Accumulate(benchmark::State& state) {
  std::vector<float> values(state.range(0), 1.0f);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        std::accumulate(values.begin(), values.end(), 0.0f));
  }
  state.counters["elements"] = static_cast<double>(values.size());
}

class RecordingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      names.push_back(run.benchmark_name());
      elements.push_back(run.counters.at("elements"));
    }
  }
  std::vector<std::string> names;
  std::vector<double> elements;
};

TEST(BenchmarkTest, RunsARegisteredBenchmark) {
  benchmark::RegisterBenchmark("BM_Accumulate", BM_Accumulate)
      ->Arg(256)
      ->Iterations(10);
  RecordingReporter reporter;
  EXPECT_EQ(benchmark::RunSpecifiedBenchmarks(&reporter), 1u);
  ASSERT_EQ(reporter.names.size(), 1u);
  EXPECT_EQ(reporter.names[0], "BM_Accumulate/256/iterations:10");
  EXPECT_EQ(reporter.elements[0], 256.0);
}

}  // namespace
