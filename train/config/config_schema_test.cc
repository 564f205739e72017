// Tests of key validation against a schema (global, layer, iterator keys,
// weight tags, types), of the settings each layer and iterator gets, and of
// turning a ParamError into a ConfigError at the line that caused it.
#include "train/config/config_schema.h"

#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "param/param.h"
#include "train/config/config_test_util.h"
#include "train/config/train_config.h"

namespace umbra {
namespace train {

// A registered struct standing in for a layer's parameters.
struct ConfigTestFullcParam : public Parameter<ConfigTestFullcParam> {
  int nhidden;
  float init_sigma;
  UMBRA_DECLARE_PARAMETER(ConfigTestFullcParam) {
    UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1).describe("Outputs.");
    UMBRA_DECLARE_FIELD(init_sigma).set_default(0.01f).describe("Sigma.");
    UMBRA_DECLARE_ALIAS(nhidden, num_hidden);
  }
};
UMBRA_REGISTER_PARAMETER(ConfigTestFullcParam);

struct ConfigTestUpdaterParam : public Parameter<ConfigTestUpdaterParam> {
  float eta;
  float momentum;
  UMBRA_DECLARE_PARAMETER(ConfigTestUpdaterParam) {
    UMBRA_DECLARE_FIELD(eta).set_default(0.01f).set_lower_bound(0.0f);
    UMBRA_DECLARE_FIELD(momentum).set_default(0.9f);
    UMBRA_DECLARE_ALIAS(eta, lr);
  }
};
UMBRA_REGISTER_PARAMETER(ConfigTestUpdaterParam);

namespace {

using testing::ConfigErrorOf;
using ::testing::HasSubstr;
using testing::MnistSchema;
using ::testing::StartsWith;

TrainConfig Build(const std::string& text) {
  return ParseTrainConfigText(text, "t.conf");
}

std::string ValidateError(const std::string& text) {
  const TrainConfig config = Build(text);
  const KeySchema schema = MnistSchema();
  return ConfigErrorOf([&] { ValidateTrainConfig(config, schema); });
}

const char kNet[] =
    "netconfig = start\n"
    "layer[0->1] = fullc:fc1\n"
    "  nhidden = 10\n"
    "layer[1->2] = dropout\n"
    "  threshold = 0.5\n"
    "layer[2->2] = softmax\n"
    "netconfig = end\n";

TEST(ConfigSchemaTest, AcceptsKnownKeysEverywhere) {
  const TrainConfig config = Build(std::string(kNet) +
                                   "dev = cpu\n"
                                   "nhidden = 5\n"    // a layer key
                                   "shuffle = 1\n"    // an iterator key
                                   "wmat:lr = 0.1\n"  // a tagged layer key
                                   "bias:wd = 0\n"
                                   "lr:schedule = expdecay\n"
                                   "data = train\n"
                                   "iter = mnist\n"
                                   "  path_img = a.gz\n"
                                   "iter = threadbuffer\n"
                                   "  shuffle = 0\n"  // passed down to mnist
                                   "  buffer_size = 2\n"
                                   "iter = end\n");
  ValidateTrainConfig(config, MnistSchema());
}

TEST(ConfigSchemaTest, UnknownGlobalKey) {
  EXPECT_THAT(ValidateError("dev = cpu\ntrain_eval = 15\n"),
              StartsWith("t.conf:2: unknown key 'train_eval' in the global "
                         "settings; did you mean 'eval_train'? Valid keys: "
                         "48 in all; see tools/config_reference.md"));
  EXPECT_THAT(ValidateError("foo = 1\n"),
              StartsWith("t.conf:1: unknown key 'foo' in the global "
                         "settings. Valid keys: 48 in all; see "
                         "tools/config_reference.md"));
  EXPECT_THAT(ValidateError("wmat:dev = 1\n"),
              StartsWith("t.conf:1: unknown key 'wmat:dev' in the global "
                         "settings (a tagged key is a layer key). Valid "
                         "keys: 27 in all; see tools/config_reference.md"));
}

TEST(ConfigSchemaTest, AHugeUnknownKeyIsQuotedShort) {
  const std::string key(100000, 'k');
  EXPECT_THAT(ValidateError(key + " = 1\n"),
              StartsWith("t.conf:1: unknown key '" + std::string(80, 'k') +
                         "... (100000 characters)' in the global settings"));
}

TEST(ConfigSchemaTest, UnknownLayerKey) {
  EXPECT_EQ(ValidateError("netconfig = start\n"
                          "layer[0->1] = dropout:dp\n"
                          "  threshhold = 0.5\n"
                          "netconfig = end\n"),
            "t.conf:3: unknown key 'threshhold' in layer dp (dropout); did "
            "you mean 'threshold'? Valid keys: threshold");
  EXPECT_EQ(ValidateError("netconfig = start\nlayer[0->1] = relu\n"
                          "  dev = gpu\nnetconfig = end\n"),
            "t.conf:3: unknown key 'dev' in layer relu_0 (relu); 'dev' is a "
            "global setting: put it outside netconfig and the data/eval/pred "
            "blocks. Valid keys: (none)");
  EXPECT_THAT(ValidateError("netconfig = start\nlayer[0->1] = fullc:fc1\n"
                            "  shuffle = 1\nnetconfig = end\n"),
              StartsWith("t.conf:3: unknown key 'shuffle' in layer fc1 "
                         "(fullc); 'shuffle' is a setting of iterator mnist: "
                         "put it in a data/eval/pred block after iter = "
                         "mnist. Valid keys: "));
  EXPECT_THAT(ValidateError("netconfig = start\nlayer[0->1] = fullc:fc1\n"
                            "  nhiden = 10\nnetconfig = end\n"),
              StartsWith("t.conf:3: unknown key 'nhiden' in layer fc1 "
                         "(fullc); did you mean 'nhidden'? Valid keys: 17 in "
                         "all; see tools/config_reference.md"));
}

TEST(ConfigSchemaTest, WeightTags) {
  EXPECT_EQ(ValidateError("netconfig = start\nlayer[0->1] = dropout\n"
                          "  wmat:threshhold = 1\nnetconfig = end\n"),
            "t.conf:3: unknown key 'wmat:threshhold' in layer dropout_0 "
            "(dropout); did you mean 'threshold'? Valid keys: threshold");
  // cxxnet ignored `lr:eta` silently (lr: is no tag); now it is reported.
  EXPECT_THAT(ValidateError("lr:eta = 0.1\n"),
              StartsWith("t.conf:1: unknown key 'lr:eta' in the global "
                         "settings; 'lr:' is not a weight tag (tags: wmat, "
                         "bias); did you mean 'eta'? Valid keys: "));
  EXPECT_EQ(SplitWeightTag("wmat:lr", {"wmat", "bias"}),
            std::make_pair(std::string("wmat"), std::string("lr")));
  EXPECT_EQ(SplitWeightTag("lr:step", {"wmat", "bias"}),
            std::make_pair(std::string(), std::string("lr:step")));
}

TEST(ConfigSchemaTest, SchemaThatListsTaggedKeysItself) {
  // Like the layer registry: per-type tagged keys, no tags to remove.
  KeySchema schema;
  schema.SetWeightTags({});
  schema.AddGlobalKeys({"dev"});
  schema.AddLayerType("fullc", {"nhidden", "lr", "wmat:lr", "bias:lr"});
  schema.AddLayerType("prelu", {"slope:lr"});
  const TrainConfig config = Build(
      "wmat:lr = 1\nslope:lr = 2\nnetconfig = start\n"
      "layer[+1] = fullc:fc1\n  bias:lr = 3\nlayer[+0] = prelu\n"
      "netconfig = end\n");
  ValidateTrainConfig(config, schema);
  std::vector<std::string> fc1;
  for (const ConfigEntry& entry :
       LayerSettings(config, config.net.layers[0], schema)) {
    fc1.push_back(entry.ToString());
  }
  EXPECT_THAT(fc1, ::testing::ElementsAre("wmat:lr = 1", "bias:lr = 3"));
  EXPECT_EQ(ConfigErrorOf([&] {
              ValidateTrainConfig(Build("netconfig = start\nlayer[+1] = prelu\n"
                                        "  wmat:lr = 1\nnetconfig = end\n"),
                                  schema);
            }),
            "t.conf:3: unknown key 'wmat:lr' in layer prelu_0 (prelu). Valid "
            "keys: slope:lr");
  EXPECT_THAT(ConfigErrorOf(
                  [&] { ValidateTrainConfig(Build("lr:dev = 1\n"), schema); }),
              StartsWith("t.conf:1: unknown key 'lr:dev' in the global "
                         "settings; 'lr:' is not a weight tag; did you mean "
                         "'dev'?"));
}

TEST(ConfigSchemaTest, UnknownTypes) {
  EXPECT_EQ(ValidateError("netconfig = start\nlayer[0->1] = fulc:fc1\n"
                          "netconfig = end\n"),
            "t.conf:2: 'layer[0->1] = fulc:fc1': unknown layer type 'fulc'; "
            "did you mean 'fullc'? Known types: 14 in all; see "
            "tools/config_reference.md");
  EXPECT_EQ(ValidateError("eval = test\niter = mnst\niter = end\n"),
            "t.conf:2: key 'iter': unknown iterator type 'mnst'; did you mean "
            "'mnist'? Known types: mnist, threadbuffer");
}

TEST(ConfigSchemaTest, IteratorKeys) {
  EXPECT_EQ(ValidateError("eval = test\niter = mnist\n  path_imgs = a\n"
                          "iter = end\n"),
            "t.conf:3: unknown key 'path_imgs' in eval test, iterator mnist; "
            "did you mean 'path_img'? Valid keys: 6 in all; see "
            "tools/config_reference.md");
  // A stage accepts the keys of the stages it wraps, not of later ones.
  EXPECT_EQ(ValidateError("data = train\niter = mnist\n  buffer_size = 2\n"
                          "iter = threadbuffer\niter = end\n"),
            "t.conf:3: unknown key 'buffer_size' in data train, iterator "
            "mnist; 'buffer_size' is a setting of iterator threadbuffer: put "
            "it after iter = threadbuffer. Valid keys: 6 in all; see "
            "tools/config_reference.md");
  EXPECT_EQ(ValidateError("data = train\niter = mnist\n  nhidden = 2\n"
                          "iter = end\n"),
            "t.conf:3: unknown key 'nhidden' in data train, iterator mnist; "
            "'nhidden' is a layer setting: put it under its layer line in "
            "netconfig, or outside every block for all layers. Valid keys: 6 "
            "in all; see tools/config_reference.md");
  // Tags mean nothing to iterators.
  EXPECT_THAT(ValidateError("data = train\niter = mnist\n  wmat:shuffle = 1\n"
                            "iter = end\n"),
              StartsWith("t.conf:3: unknown key 'wmat:shuffle' in data train, "
                         "iterator mnist"));
}

TEST(ConfigSchemaTest, AnOverrideNothingReadsIsRefused) {
  const std::string text =
      "netconfig = start\n"
      "layer[0->1] = fullc:fc1\n"
      "  nhidden = 16\n"
      "layer[1->2] = fullc:fc2\n"
      "  nhidden = 3\n"
      "  wmat:lr = 0.5\n"
      "netconfig = end\n"
      "data = train\n"
      "iter = mnist\n"
      "iter = threadbuffer\n"
      "  shuffle = 1\n"  // passed down to mnist
      "iter = end\n";
  const KeySchema schema = MnistSchema();
  const auto validate = [&](const std::vector<std::string>& overrides) {
    ValidateTrainConfig(
        BuildTrainConfig(ParseConfigText(text, "t.conf"),
                         ParseCommandLineOverrides(overrides, 2)),
        schema);
  };
  const auto error = [&](const std::vector<std::string>& overrides) {
    return ConfigErrorOf([&] { validate(overrides); });
  };
  EXPECT_EQ(error({"num_round=1", "nhidden=32"}),
            "command line: argument 3: 'nhidden = 32' would change nothing: "
            "everything that reads 'nhidden' sets it itself (layer fc1 "
            "(fullc) at t.conf:3; layer fc2 (fullc) at t.conf:5), and a "
            "block's own setting wins over a global one; change the file "
            "there instead");
  EXPECT_EQ(error({"shuffle=0"}),
            "command line: argument 2: 'shuffle = 0' would change nothing: "
            "everything that reads 'shuffle' sets it itself (data train, "
            "iterator mnist, at t.conf:11), and a block's own setting wins "
            "over a global one; change the file there instead");
  // Read by at least one layer (fc1 has no wmat:lr of its own), by the
  // trainer (silent is also an iterator key), or `default`: accepted.
  EXPECT_NO_THROW(validate({"wmat:lr=0.1", "silent=0", "nhidden=default"}));
}

TEST(ConfigSchemaTest, SharedLayersUseThePrimaryType) {
  const TrainConfig config = Build(
      "netconfig = start\nlayer[0->1] = fullc:fc1\n  nhidden = 3\n"
      "layer[0->2] = share[fc1]\nnetconfig = end\n");
  const KeySchema schema = MnistSchema();
  ValidateTrainConfig(config, schema);
  const std::vector<ConfigEntry> settings =
      LayerSettings(config, config.net.layers[1], schema);
  ASSERT_EQ(settings.size(), 1u);
  EXPECT_EQ(settings[0].ToString(), "nhidden = 3");
}

TEST(ConfigSchemaTest, LayerSettingsAreMatchingGlobalsThenOwn) {
  const TrainConfig config = Build(std::string(kNet) +
                                   "dev = cpu\neta = 0.1\nwmat:lr = 0.2\n"
                                   "threshold = 0.3\nnhidden = 1\n");
  const KeySchema schema = MnistSchema();
  std::vector<std::string> fc1;
  for (const ConfigEntry& entry :
       LayerSettings(config, config.net.layers[0], schema)) {
    fc1.push_back(entry.ToString());
  }
  EXPECT_THAT(fc1, ::testing::ElementsAre("eta = 0.1", "wmat:lr = 0.2",
                                          "nhidden = 1", "nhidden = 10"));
  std::vector<std::string> dropout;
  for (const ConfigEntry& entry :
       LayerSettings(config, config.net.layers[1], schema)) {
    dropout.push_back(entry.ToString());
  }
  EXPECT_THAT(dropout,
              ::testing::ElementsAre("threshold = 0.3", "threshold = 0.5"));
}

TEST(ConfigSchemaTest, IteratorSettingsPassKeysDownTheChain) {
  const TrainConfig config = Build(
      "batch_size = 50\nsilent = 1\n"
      "data = train\niter = mnist\n  path_img = a\n"
      "iter = threadbuffer\n  shuffle = 1\n  buffer_size = 4\n"
      "iter = end\n");
  const KeySchema schema = MnistSchema();
  const IteratorChain& chain = *config.TrainIterator();
  std::vector<std::string> mnist;
  for (const ConfigEntry& entry : IteratorSettings(config, chain, 0, schema)) {
    mnist.push_back(entry.ToString());
  }
  EXPECT_THAT(mnist, ::testing::ElementsAre("batch_size = 50", "silent = 1",
                                            "path_img = a", "shuffle = 1"));
  std::vector<std::string> buffer;
  for (const ConfigEntry& entry : IteratorSettings(config, chain, 1, schema)) {
    buffer.push_back(entry.ToString());
  }
  EXPECT_THAT(buffer, ::testing::ElementsAre("silent = 1", "shuffle = 1",
                                             "buffer_size = 4"));
}

TEST(ConfigSchemaTest, ToParamKwargsSkipsDefault) {
  const TrainConfig config =
      Build("eta = 0.1\neta = default\nmetric = \"default\"\n");
  EXPECT_EQ(ToParamKwargs(config.globals),
            (std::vector<std::pair<std::string, std::string>>{
                {"eta", "0.1"}, {"metric", "default"}}));
}

TEST(ConfigSchemaTest, SchemaFromRegisteredParamStructs) {
  EXPECT_THAT(ParamStructKeys("ConfigTestFullcParam"),
              ::testing::ElementsAre("init_sigma", "nhidden", "num_hidden"));
  KeySchema schema;
  schema.AddGlobalKeys({"dev"});
  schema.AddLayerParamStructs(
      "fullc", {"ConfigTestFullcParam", "ConfigTestUpdaterParam"});
  schema.AddIteratorParamStructs("mnist", {});
  EXPECT_THAT(*schema.LayerKeys("fullc"),
              ::testing::ElementsAre("eta", "init_sigma", "lr", "momentum",
                                     "nhidden", "num_hidden"));
  EXPECT_EQ(schema.LayerKeys("conv"), std::nullopt);
  EXPECT_THAT(*schema.IteratorKeys("mnist"), ::testing::IsEmpty());
  EXPECT_THROW(schema.AddLayerParamStructs("x", {"NoSuchParam"}), ParamError);

  const TrainConfig config = Build(
      "eta = 0.5\nnetconfig = start\nlayer[+1] = fullc:fc1\n"
      "  num_hiden = 3\nnetconfig = end\n");
  EXPECT_EQ(ConfigErrorOf([&] { ValidateTrainConfig(config, schema); }),
            "t.conf:4: unknown key 'num_hiden' in layer fc1 (fullc); did you "
            "mean 'num_hidden'? Valid keys: 6 in all; see "
            "tools/config_reference.md");
}

// What a net builder does: Init the layer's struct and report a bad value
// at the line that set it.
std::string InitError(const TrainConfig& config) {
  KeySchema schema;
  schema.AddLayerParamStructs("fullc", {"ConfigTestFullcParam"});
  ValidateTrainConfig(config, schema);
  const LayerDeclaration& layer = config.net.layers[0];
  const std::vector<ConfigEntry> settings =
      LayerSettings(config, layer, schema);
  return ConfigErrorOf([&] {
    try {
      ConfigTestFullcParam param;
      param.Init(ToParamKwargs(settings));
    } catch (const ParamError& e) {
      throw ConfigErrorFromParamError(e, settings, layer.declaration,
                                      layer.Describe());
    }
  });
}

TEST(ConfigSchemaTest, ParamErrorsAreReportedAtTheirLine) {
  EXPECT_EQ(InitError(Build("netconfig = start\nlayer[+1] = fullc:fc1\n"
                            "  nhidden = 0\nnetconfig = end\n")),
            "t.conf:3: in layer fc1 (fullc): ConfigTestFullcParam: key "
            "'nhidden': expected int in [1, inf), got '0'");
  // Through an alias, and the last of repeated keys is the one reported.
  EXPECT_THAT(InitError(Build("nhidden = 5\nnetconfig = start\n"
                              "layer[+1] = fullc:fc1\n  num_hidden = 2\n"
                              "  num_hidden = -1\nnetconfig = end\n")),
              StartsWith("t.conf:5: in layer fc1 (fullc): "
                         "ConfigTestFullcParam: key 'nhidden'"));
  // A global default that is bad is reported at the global line.
  EXPECT_THAT(InitError(Build("init_sigma = abc\nnetconfig = start\n"
                              "layer[+1] = fullc:fc1\n  nhidden = 2\n"
                              "netconfig = end\n")),
              StartsWith("t.conf:1: in layer fc1 (fullc): "
                         "ConfigTestFullcParam: key 'init_sigma'"));
  // A bad global value is reported at its own line even where the layer
  // sets the key again (the value is checked before it is overridden).
  EXPECT_THAT(InitError(Build("nhidden = -4\nnetconfig = start\n"
                              "layer[+1] = fullc:fc1\n  nhidden = 2\n"
                              "netconfig = end\n")),
              StartsWith("t.conf:1: in layer fc1 (fullc): "
                         "ConfigTestFullcParam: key 'nhidden': expected int "
                         "in [1, inf), got '-4'"));
  // A missing required key is reported at the layer line.
  EXPECT_THAT(InitError(Build("netconfig = start\nlayer[+1] = fullc:fc1\n"
                              "netconfig = end\n")),
              StartsWith("t.conf:2: in layer fc1 (fullc): "
                         "ConfigTestFullcParam"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
