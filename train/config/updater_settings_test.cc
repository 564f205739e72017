// Which entries SeparateUpdaterSettings takes out of a layer's settings and
// out of the global ones: updater keys for some weights only, as cxxnet's
// per-weight updaters read them.
#include "train/config/updater_settings.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "train/config/config.h"

namespace umbra {
namespace train {
namespace {

std::vector<std::string> KeysOf(const std::vector<ConfigEntry>& entries) {
  std::vector<std::string> keys;
  for (const ConfigEntry& entry : entries) keys.push_back(entry.key);
  return keys;
}

KeySchema Schema() {
  KeySchema schema;
  schema.AddGlobalKeys({"batch_size", "beta1", "lr:step", "momentum"});
  schema.AddLayerType("fullc", {"nhidden", "lr", "wd", "momentum"});
  schema.AddLayerType("relu", {});
  schema.AddWeightUpdaterKeys({"beta1", "momentum", "momentum_schedule"});
  return schema;
}

TEST(UpdaterSettingsTest, LayerKeysStayAndUpdaterKeysMove) {
  TrainConfig config = ParseTrainConfigText(
      "netconfig = start\n"
      "layer[in->h] = fullc:fc1\n"
      "  nhidden = 3\n"
      "  beta1 = 0.2\n"
      "  momentum = 0.5\n"  // a layer key, though the updaters have it too
      "  wmat:lr = 0.1\n"
      "  bias:momentum_schedule = 1\n"
      "  lr:stpe = 2\n"  // a misspelt schedule key: the updater names it
      "  nhiden = 3\n"   // ValidateTrainConfig names it
      "layer[h->h] = relu\n"
      "  beta1 = 0.3\n"
      "layer[h->z] = nosuchtype\n"
      "  beta1 = 0.3\n"
      "netconfig = end\n"
      "beta1 = 0.1\n"
      "bias:beta1 = 0.4\n"
      "bias:wd = 0\n"
      "lr:step = 10\n"
      "wmat:lr:step = 5\n"
      "bias:momentum = 0.1\n",
      "a.conf");
  SeparateUpdaterSettings(&config, Schema());
  const std::vector<LayerDeclaration>& layers = config.net.layers;
  EXPECT_EQ(
      KeysOf(layers[0].settings),
      (std::vector<std::string>{"nhidden", "momentum", "wmat:lr", "nhiden"}));
  EXPECT_EQ(
      KeysOf(layers[0].updater_settings),
      (std::vector<std::string>{"beta1", "bias:momentum_schedule", "lr:stpe"}));
  EXPECT_EQ(KeysOf(layers[1].updater_settings),
            (std::vector<std::string>{"beta1"}));
  // An unknown type keeps its settings.
  EXPECT_EQ(KeysOf(layers[2].settings), (std::vector<std::string>{"beta1"}));
  EXPECT_TRUE(layers[2].updater_settings.empty());
  // Globally only tagged keys that are no layer's.
  EXPECT_EQ(KeysOf(config.globals),
            (std::vector<std::string>{"beta1", "bias:wd", "lr:step",
                                      "bias:momentum"}));
  EXPECT_EQ(KeysOf(config.tagged_updater_settings),
            (std::vector<std::string>{"bias:beta1", "wmat:lr:step"}));
}

TEST(UpdaterSettingsTest, TagAndKeyOfAnEntry) {
  EXPECT_EQ(UpdaterSettingTag("bias:lr:step"), "bias");
  EXPECT_EQ(UpdaterSettingKey("bias:lr:step"), "lr:step");
  EXPECT_EQ(UpdaterSettingTag("lr:step"), "");
  EXPECT_EQ(UpdaterSettingKey("lr:step"), "lr:step");
  EXPECT_EQ(UpdaterSettingTag("beta1"), "");
  EXPECT_EQ(UpdaterSettingKey("wmat:beta1"), "beta1");
}

}  // namespace
}  // namespace train
}  // namespace umbra
