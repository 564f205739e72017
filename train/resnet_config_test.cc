// train/configs/fashion_mnist_resnet.conf: the ResNet builds with the
// stages its header describes, and a few updates on one batch lower its
// loss (the whole training run is in the config's header, measured).
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "tensor/test_seed.h"
#include "train/config/config.h"
#include "train/net_setup.h"

namespace umbra {
namespace train {
namespace {

constexpr char kConfig[] = "train/configs/fashion_mnist_resnet.conf";

TEST(ResnetConfigTest, BuildsItsStagesAndLearnsABatch) {
  constexpr index_t kBatch = 16;
  NetWithoutData built = BuildNetWithoutData(
      LoadTrainConfig(kConfig, {"batch_size=" + std::to_string(kBatch)}));
  BasicNetwork<cpu>& net = *built.net;
  const NetConfig& config = net.net_config();
  // Three stages of two basic blocks: 16 channels at 28x28, 32 at 14x14,
  // 64 at 7x7; then global average pooling.
  const std::pair<const char*, Shape<4>> stages[] = {
      {"s1b2", Shape4(kBatch, 16, 28, 28)},
      {"s2b2", Shape4(kBatch, 32, 14, 14)},
      {"s3b2", Shape4(kBatch, 64, 7, 7)},
      {"gap", Shape4(kBatch, 64, 1, 1)},
      {"fc", Shape4(kBatch, 1, 1, 10)}};
  for (const auto& [node, shape] : stages) {
    const int index = config.FindNode(node);
    ASSERT_GE(index, 0) << node;
    EXPECT_EQ(net.NodeData(index).shape_, shape) << node;
  }
  EXPECT_EQ(net.NumParameters(), 174970);

  const test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  std::normal_distribution<float> pixel(0.0f, 1.0f);
  std::uniform_int_distribution<int> label(0, 9);
  const Tensor<cpu, 4, float> input = net.input();
  for (index_t i = 0; i < input.shape_.Size(); ++i) input.dptr_[i] = pixel(rng);
  TensorContainer<cpu, 2, float> labels(Shape2(kBatch, 1));
  for (index_t i = 0; i < kBatch; ++i) labels[i][0] = label(rng);
  net.SetLabel("label", labels.view());
  built.updater->StartRound(0);
  net.Forward(true);
  const double first = net.Loss();
  for (int step = 0; step < 8; ++step) {
    net.Backprop();
    built.updater->Update();
    net.Forward(true);
  }
  EXPECT_LT(net.Loss(), 0.5 * first) << "first loss " << first;
}

}  // namespace
}  // namespace train
}  // namespace umbra
