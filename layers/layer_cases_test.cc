// The layer table (layers/layer_cases.h): every registered type has a
// gradient, a gpu and a benchmark case; names are unique per harness; loss
// cases, and only they, have labels.
#include "layers/layer_cases.h"

#include <set>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "layers/layer_registry.h"

namespace umbra {
namespace layers {
namespace {

// Every harness, named for messages.
const std::pair<LayerCase::Harness, const char*> kHarnesses[] = {
    {LayerCase::kGradientDouble, "double gradient"},
    {LayerCase::kGradientFloat, "float gradient"},
    {LayerCase::kGpu, "gpu"},
    {LayerCase::kBenchmark, "benchmark"},
};

TEST(LayerCasesTest, EveryRegisteredTypeHasACaseInEachHarness) {
  for (const auto& [harness, what] : kHarnesses) {
    // Not every type can be checked in float (LayerCase::kGradientFloat).
    if (harness == LayerCase::kGradientFloat) continue;
    std::set<std::string> covered;
    for (const LayerCase& c : LayerCases(harness)) covered.insert(c.type);
    for (const std::string& type : LayerRegistry::List()) {
      EXPECT_EQ(covered.count(type), 1u) << "no " << what << " case for "
                                         << type << " in layers/layer_cases.cc";
    }
  }
}

TEST(LayerCasesTest, NamesAreUniqueInEachHarness) {
  for (const auto& [harness, what] : kHarnesses) {
    std::set<std::string> names;
    for (const LayerCase& c : LayerCases(harness)) {
      EXPECT_TRUE(names.insert(c.name).second)
          << "two " << what << " cases named " << c.name;
    }
  }
}

// The harnesses give a loss case its labels and every other case output
// gradients: a case's labels must say which it is.
TEST(LayerCasesTest, LossCasesAndOnlyThemHaveLabels) {
  for (const auto& [harness, what] : kHarnesses) {
    for (const LayerCase& c : LayerCases(harness)) {
      EXPECT_EQ(LayerRegistry::Get(c.type).is_loss,
                c.labels != LayerCase::Labels::kNone)
          << what << " case " << c.name;
    }
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
