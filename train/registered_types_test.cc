// The types the shipped trainer knows: this test links exactly the
// libraries //train:train links (//train:registered_types), so a type
// added or lost (an alwayslink dropped) shows up here.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer_cases.h"
#include "layers/layer_registry.h"
#include "train/data/iterator_registry.h"
#include "train/metrics/metric.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace train {
namespace {

TEST(RegisteredTypesTest, LayerTypes) {
  // The types of the layer-case table (layers/layer_cases.cc), which
  // layers/layer_registry_test holds to the full list of shipped types.
  std::set<std::string> table;
  for (const layers::LayerCase& c :
       layers::LayerCases(layers::LayerCase::kGradientDouble)) {
    table.insert(c.type);
  }
  EXPECT_EQ(layers::LayerRegistry::List(),
            std::vector<std::string>(table.begin(), table.end()));
}

TEST(RegisteredTypesTest, IteratorTypes) {
  EXPECT_EQ(IteratorRegistry::List(),
            (std::vector<std::string>{"attachtxt", "binary", "cifar", "csv",
                                      "img", "imgbin", "imginst", "imgrec",
                                      "membuffer", "mnist", "threadbuffer"}));
}

TEST(RegisteredTypesTest, UpdatersAndMetrics) {
  EXPECT_EQ(
      optim::UpdaterRegistry::List(),
      (std::vector<std::string>{"adam", "adamw", "nag", "rmsprop", "sgd"}));
  EXPECT_EQ(metrics::ListMetrics(),
            (std::vector<std::string>{"error", "logloss", "rec@k", "rmse"}));
}

TEST(RegisteredTypesTest, TrainerKeysAreGlobalKeys) {
  const KeySchema schema = MakeTrainerSchema();
  const std::vector<std::string> keys = schema.GlobalKeys();
  for (const char* key :
       {"task", "dev", "nthread", "num_round", "max_round", "model_dir",
        "save_model", "continue", "model_in", "metric", "eval_train", "eta",
        "momentum", "lr:schedule", "beta1"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
