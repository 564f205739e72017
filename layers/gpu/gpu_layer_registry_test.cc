// The layer types a --config=cuda build registers for the gpu: all of them,
// in both precisions. Needs no GPU (registration touches no device).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer_registry.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

TEST(GpuLayerRegistryTest, EveryTypeIsRegisteredForTheGpu) {
  const std::vector<std::string> expected = {
      "avg_pooling", "batch_norm",     "bias",    "ch_concat",
      "concat",      "conv",           "dropout", "flatten",
      "fullc",       "l2_loss",        "lp_loss", "lrn",
      "max_pooling", "multi_logistic", "prelu",   "relu",
      "rrelu",       "sigmoid",        "softmax", "softplus",
      "split",       "sum_pooling",    "tanh",    "xelu"};
  EXPECT_EQ((ListDeviceLayerTypes<gpu, float>()), expected);
  EXPECT_EQ((ListDeviceLayerTypes<gpu, double>()), expected);
  EXPECT_EQ((ListDeviceLayerTypes<cpu, float>()), expected);
  EXPECT_EQ(ListLayerTypes(), expected);
}

}  // namespace
}  // namespace layers
}  // namespace umbra
