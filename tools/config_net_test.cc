// The net check and time build from a config, its memory estimate and its
// per-layer timing.
#include "tools/config_net.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tools/layer_timing.h"
#include "tools/net_memory.h"
#include "train/config/config.h"

namespace umbra {
namespace tools {
namespace {

constexpr char kTiny[] = "tools/testdata/tiny_mlp.conf";

TEST(ConfigNetTest, BuildsWithoutDataAndCountsMemory) {
  ConfigNet built = BuildConfigNet(kTiny, {});
  EXPECT_EQ(train::ShapeText(built.net->input_shape()), "(2,1,1,4)");
  EXPECT_EQ(built.net->NumParameters(), 4 * 3 + 3 + 3 * 2 + 2);
  const NetMemory memory =
      EstimateNetMemory(built.net.get(), built.updater.get());
  EXPECT_EQ(memory.weights, 23 * 4);
  EXPECT_EQ(memory.gradients, 23 * 4);
  EXPECT_EQ(memory.updater_state, 2 * 23 * 4);  // adam: two moments
  // Nodes in (2x4), fc1 (2x3), fc2 (2x2); relu and softmax in place.
  EXPECT_EQ(memory.activations, 2 * (8 + 6 + 4) * 4);
  EXPECT_EQ(memory.total(), 92 + 92 + 184 + 144);
}

TEST(ConfigNetTest, OverridesAndTheTrainersErrors) {
  ConfigNet bigger = BuildConfigNet(kTiny, {"batch_size=5"});
  EXPECT_EQ(bigger.net->input_shape()[0], 5u);
  try {
    BuildConfigNet(kTiny, {"metric=eror"});
    FAIL() << "no error";
  } catch (const train::ConfigError& e) {
    EXPECT_EQ(e.key(), "metric");
    EXPECT_NE(std::string(e.what()).find("did you mean 'error'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(BuildConfigNet(kTiny, {"input_shape=1,4"}), train::ConfigError);
}

// Issue 6/7: check refuses a net larger than this machine as the trainer
// does, at once, naming batch_size and the batch size that fits.
TEST(ConfigNetTest, RefusesANetLargerThanThisMachine) {
  // 2 * (4 + 3 + 2) floats per instance: 144 GiB at this batch size.
  if (train::Network::DeviceMemory() > 2147483647LL * 72) {
    GTEST_SKIP() << "this machine holds the net";
  }
  try {
    BuildConfigNet(kTiny, {"batch_size=2147483647"});
    FAIL() << "no error";
  } catch (const train::ConfigError& e) {
    EXPECT_EQ(e.key(), "batch_size");
    const std::string message = e.what();
    EXPECT_NE(message.find("of physical memory: its nodes take 144.00 GiB at "
                           "batch_size 2147483647"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("reduce batch_size: at most "), std::string::npos)
        << message;
  }
}

TEST(HumanBytesTest, Units) {
  EXPECT_EQ(HumanBytes(512), "512 B");
  EXPECT_EQ(HumanBytes(1536), "1.50 KiB");
  EXPECT_EQ(HumanBytes(3 * 1024 * 1024), "3.00 MiB");
}

TEST(LayerTimingTest, TimesEveryLayer) {
  ConfigNet built = BuildConfigNet(kTiny, {});
  const NetTiming timing = TimeNet(built.net.get(), 3, 1);
  ASSERT_EQ(timing.layers.size(), 4u);
  EXPECT_EQ(timing.layers[0].name, "fc1");
  EXPECT_EQ(timing.layers[3].type, "softmax");
  // fc1 computes the relu after it (Layer::FuseRelu), which takes no time
  // of its own.
  EXPECT_EQ(timing.layers[1].type, "relu (fused)");
  EXPECT_EQ(timing.layers[1].forward_ms, 0.0);
  EXPECT_EQ(timing.layers[1].backward_ms, 0.0);
  // Each other layer takes some time, and at most a whole pass's: each pass
  // sums its layers' times, so the median pass is at least each layer's
  // median.
  for (const size_t i : {0, 2, 3}) {
    const LayerTiming& layer = timing.layers[i];
    EXPECT_GT(layer.forward_ms, 0.0) << layer.name;
    EXPECT_GT(layer.backward_ms, 0.0) << layer.name;
    EXPECT_LE(layer.forward_ms, timing.forward_ms) << layer.name;
    EXPECT_LE(layer.backward_ms, timing.backward_ms) << layer.name;
  }
  EXPECT_EQ(timing.batch_size, 2);
  EXPECT_TRUE(std::isfinite(built.net->Loss()));
  const std::string table = FormatNetTiming(timing);
  EXPECT_EQ(table.rfind("layer            type             forward ms", 0), 0u)
      << table;
  EXPECT_NE(table.find("(medians of 3 iterations after 1 warm-up)"),
            std::string::npos)
      << table;
  // The work, counted by hand: fc1 4 -> 3 on 2 rows reads the net's input,
  // so its backward makes no input gradient; relu and softmax move their
  // nodes (in place: read and written forward, then the gradient read, the
  // data read and the input gradient written).
  EXPECT_EQ(timing.layers[0].forward_flops, 2 * 2 * 4 * 3);
  EXPECT_EQ(timing.layers[0].backward_flops, 2 * 2 * 4 * 3);
  EXPECT_EQ(timing.layers[1].forward_flops, 0);
  EXPECT_EQ(timing.layers[1].bytes, 4 * (2 * 6 + 2 * 6 + 6));
  EXPECT_EQ(timing.layers[2].forward_flops, 2 * 2 * 3 * 2);
  EXPECT_EQ(timing.layers[2].backward_flops, 2 * 2 * 2 * 3 * 2);
  EXPECT_EQ(timing.layers[3].bytes, 4 * (2 * 4 + 2 * 4 + 4));
}

TEST(LayerTimingTest, SharesOfThePeak) {
  NetTiming timing;
  timing.layers = {{"conv1", "conv", 2.0, 4.0, 2e8, 4e8, 0},
                   {"relu1", "relu", 1.0, 1.0, 0, 0, 1e7}};
  timing.forward_ms = 3.0;
  timing.backward_ms = 5.0;
  timing.batch_size = 10;
  CpuPeak peak;
  peak.fma_gflops = 200;
  peak.copy_gbytes = 10;
  const std::string table = FormatNetTiming(timing, &peak);
  // conv1: 6e8 FLOP in 6 ms = 100 GFLOP/s, half the peak; relu1: 1e7
  // bytes in 2 ms = 5 GB/s, half the copy bandwidth; the pass: 6e8 FLOP
  // in 8 ms = 75 GFLOP/s.
  EXPECT_NE(table.find("conv1            conv                  2.000        "
                       "4.000     100.0   50%\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("relu1            relu                  1.000        "
                       "1.000                       5.0   50%\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("total (median pass)                    3.000        "
                       "5.000      75.0   38%\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("1250 images/s, 60.0 MFLOP per image"),
            std::string::npos)
      << table;
}

TEST(LayerTimingTest, Median) {
  EXPECT_EQ(Median({}), 0.0);
  EXPECT_EQ(Median({3, 1, 2}), 2.0);
  EXPECT_EQ(Median({4, 1, 2, 3}), 2.5);
}

}  // namespace
}  // namespace tools
}  // namespace umbra
