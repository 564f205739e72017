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

// layers/layer_registry_test asserts that LayerRegistry::List() is the full
// list of shipped types.
TEST(GpuLayerRegistryTest, EveryTypeIsRegisteredForTheGpu) {
  const std::vector<std::string> all = LayerRegistry::List();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ((LayerRegistry::ListCreators<gpu, float>()), all);
  EXPECT_EQ((LayerRegistry::ListCreators<gpu, double>()), all);
  EXPECT_EQ((LayerRegistry::ListCreators<cpu, float>()), all);
}

}  // namespace
}  // namespace layers
}  // namespace umbra
