// The types the shipped trainer knows: this test links exactly the
// libraries //train:train links (//train:registered_types), so a type
// added or lost (an alwayslink dropped) shows up here.
#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer_registry.h"
#include "train/data/iterator_registry.h"
#include "train/metrics/metric.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace train {
namespace {

TEST(RegisteredTypesTest, LayerTypes) {
  EXPECT_EQ(
      layers::LayerRegistry::List(),
      (std::vector<std::string>{
          "avg_pooling", "batch_norm",     "bias",        "ch_concat",
          "concat",      "conv",           "dropout",     "elementwise_sum",
          "eltwise_max", "eltwise_prod",   "eltwise_sum", "flatten",
          "fullc",       "l2_loss",        "lp_loss",     "lrn",
          "max_pooling", "multi_logistic", "prelu",       "relu",
          "rrelu",       "sigmoid",        "softmax",     "softplus",
          "split",       "sum_pooling",    "tanh",        "xelu"}));
}

TEST(RegisteredTypesTest, IteratorTypes) {
  EXPECT_EQ(
      IteratorRegistry::List(),
      (std::vector<std::string>{"binary", "csv", "mnist", "threadbuffer"}));
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
