// The registry: the full list of types, unknown types, the keys each type
// accepts, and errors for bad parameters that name the layer and the key.
#include "layers/layer_registry.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layers/layer.h"

namespace umbra {
namespace layers {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The error text of CreateLayer<cpu, float>(type, name, kwargs).
std::string CreateError(const std::string& type, const std::string& name,
                        const ParamKwargs& kwargs) {
  try {
    CreateLayer<cpu, float>(type, name, kwargs);
  } catch (const LayerError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LayerRegistryTest, ListsEveryShippedType) {
  const std::vector<std::string> expected = {"avg_pooling",
                                             "batch_norm",
                                             "bias",
                                             "ch_concat",
                                             "concat",
                                             "conv",
                                             "dropout",
                                             "elementwise_sum",
                                             "eltwise_max",
                                             "eltwise_prod",
                                             "eltwise_sum",
                                             "fixconn",
                                             "flatten",
                                             "fullc",
                                             "insanity_max_pooling",
                                             "l2_loss",
                                             "lp_loss",
                                             "lrn",
                                             "max_pooling",
                                             "multi_logistic",
                                             "prelu",
                                             "relu",
                                             "rrelu",
                                             "sigmoid",
                                             "softmax",
                                             "softplus",
                                             "split",
                                             "sum_pooling",
                                             "tanh",
                                             "xelu"};
  EXPECT_EQ(LayerRegistry::List(), expected);
}

TEST(LayerRegistryTest, EveryTypeCreatesInBothPrecisions) {
  for (const std::string& type : LayerRegistry::List()) {
    ParamKwargs kwargs;
    if (type == "fullc") kwargs = {{"nhidden", "3"}};
    if (type == "fixconn") {
      kwargs = {{"nhidden", "3"}, {"fixconn_weight", "w.txt"}};
    }
    if (type == "conv") kwargs = {{"nchannel", "3"}, {"kernel_size", "3"}};
    if (type.find("_pooling") != std::string::npos) {
      kwargs = {{"kernel_size", "2"}};
    }
    auto f = CreateLayer<cpu, float>(type, "x", kwargs);
    auto d = CreateLayer<cpu, double>(type, "x", kwargs);
    EXPECT_EQ(f->type(), type);
    EXPECT_EQ(d->name(), "x");
    EXPECT_EQ(f->is_loss(), LayerRegistry::Get(type).is_loss);
  }
}

// The closest few types, never the list of all of them.
TEST(LayerRegistryTest, UnknownTypeSuggestsTheClosest) {
  const std::string error = CreateError("fulc", "fc1", {});
  EXPECT_THAT(error, HasSubstr("unknown layer type 'fulc'"));
  EXPECT_THAT(error, HasSubstr("did you mean 'fullc'?"));
  EXPECT_THAT(error, HasSubstr("see tools/config_reference.md"));
  EXPECT_THAT(error, Not(HasSubstr("xelu")));
  EXPECT_THAT(CreateError("convolution_3d", "c", {}),
              Not(HasSubstr("did you mean")));
}

TEST(LayerRegistryTest, BadValueNamesLayerAndKey) {
  const std::string error = CreateError("fullc", "fc1", {{"nhidden", "0"}});
  EXPECT_THAT(error, HasSubstr("layer 'fc1' (fullc)"));
  EXPECT_THAT(error, HasSubstr("'nhidden'"));
  EXPECT_THAT(error, HasSubstr("got '0'"));
}

TEST(LayerRegistryTest, BadSettingKeepsItsParamErrorAsTheCause) {
  try {
    CreateLayer<cpu, float>("fullc", "fc1",
                            {{"nhidden", "3"}, {"wmat:eta", "fast"}});
    FAIL() << "no LayerError";
  } catch (const LayerError& e) {
    EXPECT_THAT(e.what(), HasSubstr("layer 'fc1' (fullc): weight tag 'wmat'"));
    ASSERT_TRUE(e.cause().has_value());
    EXPECT_EQ(e.cause()->key(), "lr");  // the field, not its alias eta
    EXPECT_EQ(e.cause()->value(), "fast");
  }
}

TEST(LayerRegistryTest, MissingRequiredKeyNamesIt) {
  const std::string error = CreateError("fullc", "fc1", {});
  EXPECT_THAT(error, HasSubstr("layer 'fc1' (fullc)"));
  EXPECT_THAT(error, HasSubstr("nhidden"));
}

TEST(LayerRegistryTest, UnknownKeySuggestsClosest) {
  const std::string error =
      CreateError("fullc", "fc1", {{"nhiden", "10"}, {"nhidden", "10"}});
  EXPECT_THAT(error, HasSubstr("layer 'fc1' (fullc)"));
  EXPECT_THAT(error, HasSubstr("unknown key 'nhiden'"));
  EXPECT_THAT(error, HasSubstr("did you mean 'nhidden'?"));
  EXPECT_THAT(error, HasSubstr("Valid keys:"));
  // A weight key is not a key of a layer without weights.
  EXPECT_THAT(CreateError("relu", "r1", {{"init_sigma", "1"}}),
              HasSubstr("layer 'r1' (relu): unknown key 'init_sigma'"));
}

TEST(LayerRegistryTest, DropoutThresholdOutOfRange) {
  for (const char* bad : {"1.5", "1", "-0.1"}) {
    const std::string error =
        CreateError("dropout", "drop1", {{"threshold", bad}});
    EXPECT_THAT(error, HasSubstr("layer 'drop1' (dropout)")) << bad;
    EXPECT_THAT(error, HasSubstr("'threshold'")) << bad;
  }
  EXPECT_THAT(CreateError("dropout", "drop1", {{"threshold", "1"}}),
              HasSubstr("expected float in [0, 1), got '1'"));
  EXPECT_EQ(CreateError("dropout", "d", {{"threshold", "0.99"}}), "(no error)");
}

TEST(LayerRegistryTest, OtherRangeChecks) {
  EXPECT_THAT(CreateError("xelu", "x", {{"b", "0"}}), HasSubstr("'b'"));
  EXPECT_THAT(CreateError("rrelu", "r", {{"lb", "4"}, {"ub", "3"}}),
              HasSubstr("'ub'"));
  EXPECT_THAT(CreateError("lp_loss", "l", {{"p", "0.5"}}), HasSubstr("'p'"));
  EXPECT_THAT(
      CreateError("fullc", "f", {{"nhidden", "2"}, {"random_type", "gauss"}}),
      HasSubstr("'random_type'"));
}

TEST(LayerRegistryTest, TaggedKeys) {
  EXPECT_EQ(CreateError("fullc", "f",
                        {{"nhidden", "2"},
                         {"wmat:lr", "0.1"},
                         {"bias:wd", "0"},
                         {"wmat:eta", "0.2"}}),
            "(no error)");
  const std::string bad_tag =
      CreateError("fullc", "fc1", {{"nhidden", "2"}, {"wmta:lr", "0.1"}});
  EXPECT_THAT(bad_tag, HasSubstr("layer 'fc1' (fullc)"));
  EXPECT_THAT(bad_tag, HasSubstr("unknown weight tag 'wmta'"));
  EXPECT_THAT(bad_tag, HasSubstr("did you mean 'wmat'?"));
  EXPECT_THAT(bad_tag, HasSubstr("Weight tags: wmat, bias"));
  const std::string bad_key =
      CreateError("fullc", "fc1", {{"nhidden", "2"}, {"wmat:nhidden", "3"}});
  EXPECT_THAT(bad_key, HasSubstr("'nhidden' is not a weight setting"));
  EXPECT_THAT(CreateError("relu", "r", {{"wmat:lr", "1"}}),
              HasSubstr("has no weights"));
  EXPECT_THAT(CreateError("fullc", "fc1",
                          {{"nhidden", "2"}, {"bias:init_sigma", "-1"}}),
              HasSubstr("weight tag 'bias'"));
  // cxxnet's tag names are aliases, listed with the tag they stand for.
  EXPECT_EQ(CreateError("prelu", "p", {{"bias:wd", "0"}, {"slope:lr", "1"}}),
            "(no error)");
  EXPECT_EQ(
      CreateError("batch_norm", "bn",
                  {{"wmat:lr", "1"}, {"bias:wd", "0"}, {"gamma:wd", "0"}}),
      "(no error)");
  const std::string bad_alias = CreateError("prelu", "p", {{"bais:wd", "0"}});
  EXPECT_THAT(bad_alias, HasSubstr("unknown weight tag 'bais'"));
  EXPECT_THAT(bad_alias, HasSubstr("did you mean 'bias'?"));
  EXPECT_THAT(bad_alias, HasSubstr("Weight tags: slope (also bias)"));
  EXPECT_THAT(CreateError("batch_norm", "bn", {{"slope:wd", "0"}}),
              HasSubstr("Weight tags: gamma (also wmat), beta (also bias)"));
  EXPECT_THAT(CreateError("batch_norm", "bn", {{"bias:wd", "-1"}}),
              HasSubstr("weight tag 'beta'"));
}

TEST(LayerRegistryTest, KnownKeysForTheConfigChecker) {
  const LayerTypeInfo& fullc = LayerRegistry::Get("fullc");
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "nhidden"));
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "num_hidden"));
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "init_sigma"));
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "eta"));
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "wmat:lr"));
  EXPECT_TRUE(LayerTypeAcceptsKey(fullc, "bias:wd"));
  EXPECT_FALSE(LayerTypeAcceptsKey(fullc, "num_round"));
  EXPECT_FALSE(LayerTypeAcceptsKey(fullc, "slope:lr"));
  const LayerTypeInfo& softmax = LayerRegistry::Get("softmax");
  EXPECT_TRUE(LayerTypeAcceptsKey(softmax, "grad_scale"));
  EXPECT_TRUE(LayerTypeAcceptsKey(softmax, "batch_size"));
  EXPECT_FALSE(LayerTypeAcceptsKey(softmax, "init_sigma"));
  const std::vector<std::string> keys = LayerTypeKeys(fullc);
  for (const char* key : {"nhidden", "no_bias", "random_type", "init_bias",
                          "lr_mult", "wmat:init_sigma", "bias:lr"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
  EXPECT_EQ(LayerRegistry::Get("prelu").weight_tags,
            std::vector<std::string>{"slope"});
  EXPECT_TRUE(LayerRegistry::Get("relu").weight_tags.empty());
  // Alias-tagged keys are keys of the type, so that the trainer passes a
  // global `bias:wd` to prelu and batch_norm layers.
  const LayerTypeInfo& prelu = LayerRegistry::Get("prelu");
  const std::vector<std::string> prelu_keys = LayerTypeKeys(prelu);
  for (const char* key : {"slope:wd", "bias:wd", "bias:lr", "random_slope"}) {
    EXPECT_NE(std::find(prelu_keys.begin(), prelu_keys.end(), key),
              prelu_keys.end())
        << key;
    EXPECT_TRUE(LayerTypeAcceptsKey(prelu, key)) << key;
  }
  EXPECT_FALSE(LayerTypeAcceptsKey(prelu, "wmat:wd"));
  EXPECT_EQ(CanonicalWeightTag(prelu, "bias"), "slope");
  EXPECT_EQ(CanonicalWeightTag(prelu, "slope"), "slope");
  EXPECT_EQ(CanonicalWeightTag(prelu, "wmat"), "");
  const LayerTypeInfo& bn = LayerRegistry::Get("batch_norm");
  for (const char* key : {"gamma:lr", "beta:wd", "wmat:lr", "bias:wd"}) {
    EXPECT_TRUE(LayerTypeAcceptsKey(bn, key)) << key;
  }
  EXPECT_EQ(CanonicalWeightTag(bn, "wmat"), "gamma");
  EXPECT_EQ(CanonicalWeightTag(bn, "bias"), "beta");
  EXPECT_EQ(WeightTagNames(bn), "gamma (also wmat), beta (also bias)");
  EXPECT_EQ(WeightTagNames(LayerRegistry::Get("fullc")), "wmat, bias");
}

TEST(LayerRegistryTest, MarkdownReference) {
  const std::string doc = LayerTypeMarkdown("fullc");
  EXPECT_THAT(doc, HasSubstr("## fullc"));
  EXPECT_THAT(doc, HasSubstr("FullcParam"));
  EXPECT_THAT(doc, HasSubstr("WeightParam"));
  EXPECT_THAT(doc, HasSubstr("nhidden"));
  EXPECT_THAT(doc, HasSubstr("`<tag>:<key>`"));
  EXPECT_THAT(LayerTypeMarkdown("prelu"),
              HasSubstr("Weights: slope (also bias);"));
}

}  // namespace
}  // namespace layers
}  // namespace umbra
