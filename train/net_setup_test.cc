// The start-up shared by the trainer and the tools: a net built without
// data from the shapes the config sets.
#include "train/net_setup.h"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/threads.h"
#include "train/config/config.h"
#include "train/optim/adam_updaters.h"
#include "train/optim/momentum_updaters.h"

namespace umbra {
namespace train {
namespace {

constexpr char kExtraNet[] =
    "extra_data_num = 1\n"          // line 1
    "netconfig = start\n"           // 2
    "layer[in,in_1->x] = concat\n"  // 3
    "layer[x->y] = fullc:fc1\n"     // 4
    "  nhidden = 3\n"               // 5
    "layer[y->y] = softmax\n"       // 6
    "netconfig = end\n"             // 7
    "batch_size = 5\n"              // 8
    "input_shape = 1,1,4\n";        // 9

NetWithoutData Build(const std::string& text) {
  return BuildNetWithoutData(ParseTrainConfigText(text, "net.conf"));
}

std::string BuildError(const std::string& text) {
  try {
    Build(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for\n" << text;
  return "";
}

TEST(NetSetupTest, ExtraInputShapesComeFromTheConfig) {
  const NetWithoutData built =
      Build(std::string(kExtraNet) + "extra_data_shape[1] = 1,1,2\n");
  ASSERT_EQ(built.net->num_inputs(), 2u);
  EXPECT_EQ(built.net->input(1).shape_, Shape4(5, 1, 1, 2));
  EXPECT_EQ(built.net->NumParameters(), 6 * 3 + 3);
  ASSERT_NE(built.updater, nullptr);
  EXPECT_EQ(built.updater->weights().size(), 2u);
}

TEST(NetSetupTest, MissingShapesSayHowToSetThem) {
  EXPECT_EQ(BuildError(kExtraNet),
            "net.conf:1: extra_data_shape[1] is not set: the net is built "
            "without data, so set the shape of every extra input node in_I "
            "as extra_data_shape[I] = channel,height,width");
  EXPECT_EQ(BuildError("netconfig = start\nlayer[in->y] = fullc:fc1\n"
                       "  nhidden = 3\nnetconfig = end\ninput_shape = 1,1,4\n")
                .substr(0, 35),
            "net.conf:2: batch_size is not set: ");
}

TEST(NetSetupTest, TheTasksDecideTheUpdater) {
  const NetWithoutData pred =
      Build(std::string(kExtraNet) +
            "extra_data_shape[1] = 1,1,2\ntask = pred\nupdater = adam\n");
  EXPECT_EQ(pred.updater, nullptr);
  // Training needs a loss layer; prediction does not.
  const std::string no_loss =
      "netconfig = start\nlayer[in->y] = fullc:fc1\n  nhidden = 3\n"
      "netconfig = end\nbatch_size = 2\ninput_shape = 1,1,4\n";
  EXPECT_EQ(Build(no_loss + "task = pred\n").net->NumParameters(), 15);
  EXPECT_EQ(BuildError(no_loss),
            "net.conf:2: the net has no loss layer to train with: end it with "
            "softmax, l2_loss, lp_loss or multi_logistic");
}

// cxxnet ignored momentum keys with adam; umbra says so, line by line.
TEST(NetSetupTest, UpdaterKeysTheUpdaterDoesNotReadGetANotice) {
  const NetWithoutData built =
      Build(std::string(kExtraNet) +
            "extra_data_shape[1] = 1,1,2\nupdater = adam\nmomentum = 0.9\n"
            "wmat:momentum = 0.5\nbeta1 = 0.2\n");
  std::vector<std::string> notices;
  for (const ConfigNotice& notice : built.notices) {
    notices.push_back(notice.ToString());
  }
  EXPECT_EQ(notices,
            (std::vector<std::string>{
                "notice: net.conf:12: 'momentum' has no effect with updater = "
                "adam (nag and sgd read it)",
                "notice: net.conf:13: 'wmat:momentum' has no effect with "
                "updater = adam (nag and sgd read it)"}));
  // A misspelt updater reads no key: only its own error, no notices.
  const CheckedConfig misspelt = CheckConfig(ParseTrainConfigText(
      std::string(kExtraNet) + "updater = adma\nmomentum = 0.9\n", "net.conf"));
  EXPECT_TRUE(misspelt.notices.empty());
}

// cxxnet's lr:* keys inside a layer: that layer's weights' own schedule,
// per weight tag too (bias: of a prelu is its slope, as in cxxnet).
TEST(NetSetupTest, ALayersScheduleKeysAreItsWeightsSchedule) {
  const std::string net =
      "netconfig = start\n"                    // 1
      "layer[in->h] = fullc:fc1\n"             // 2
      "  nhidden = 3\n"                        // 3
      "  lr:step = 1\n"                        // 4
      "  bias:lr:factor = 0.25\n"              // 5
      "layer[h->p] = prelu:act\n"              // 6
      "  bias:eta:factor = 0.125\n"            // 7
      "layer[p->y] = fullc:fc2\n"              // 8
      "  nhidden = 2\n"                        // 9
      "layer[y->y] = softmax\n"                // 10
      "netconfig = end\n"                      // 11
      "batch_size = 2\ninput_shape = 1,1,4\n"  // 12, 13
      "eta = 1\nlr:schedule = factor\nlr:step = 2\nlr:factor = 0.5\n"
      "wmat:lr:factor = 0.75\n";  // 18
  const NetWithoutData built = Build(net);
  for (int t = 0; t < 2; ++t) built.updater->Update();
  // After 2 updates: fc1's wmat 0.75^2 (the global wmat: factor, its own
  // step), its bias 0.25^2, the prelu slope 0.125^(2 / 2), fc2's wmat
  // 0.75^(2 / 2) and its bias the updater's 0.5^(2 / 2).
  EXPECT_DOUBLE_EQ(built.updater->CurrentRate("fc1.wmat"), 0.5625);
  EXPECT_DOUBLE_EQ(built.updater->CurrentRate("fc1.bias"), 0.0625);
  EXPECT_DOUBLE_EQ(built.updater->CurrentRate("act.slope"), 0.125);
  EXPECT_DOUBLE_EQ(built.updater->CurrentRate("fc2.wmat"), 0.75);
  EXPECT_DOUBLE_EQ(built.updater->CurrentRate("fc2.bias"), 0.5);
  EXPECT_EQ(BuildError(net + "gamma:lr:step = 3\n"),
            "net.conf:19: 'gamma:lr:step': no weight of the net has the tag "
            "'gamma'");
  EXPECT_EQ(BuildError(absl::StrReplaceAll(
                net, {{"bias:lr:factor", "gamma:lr:factor"}})),
            "net.conf:5: layer fc1 (fullc): 'gamma:lr:factor': the layer has "
            "no weight 'gamma' (its weights: wmat, bias)");
  EXPECT_EQ(
      BuildError(absl::StrReplaceAll(net, {{"lr:step = 1", "lr:stepp = 1"}})),
      "net.conf:4: updater 'sgd': weight 'fc1.wmat': unknown key "
      "'lr:stepp'; did you mean 'lr:step'? Valid keys: 16 in all; see "
      "tools/config_reference.md");
  EXPECT_THAT(BuildError(absl::StrReplaceAll(net, {{"layer[y->y] = softmax",
                                                    "layer[y->y] = softmax\n  "
                                                    "lr:step = 3"}})),
              ::testing::HasSubstr("net.conf:11: layer softmax_3 (softmax): "
                                   "'lr:step' is an updater key for the "
                                   "layer's weights, but it has none"));
}

// The parameters of the adam rule that weight `name` is updated with.
const optim::AdamParam& AdamParamsOf(const NetWithoutData& built,
                                     const std::string& name) {
  const auto* adam =
      dynamic_cast<const optim::AdamUpdater<cpu, float>*>(built.updater.get());
  EXPECT_NE(adam, nullptr);
  return adam->ParamsOf(name);
}

// The rule's keys inside a layer (beta1, momentum_schedule, ...) and after
// a weight tag, there or globally, are those weights' own, as cxxnet's
// per-weight updaters read them; the other weights keep the updater's.
TEST(NetSetupTest, ALayersRuleKeysAreItsWeightsOwn) {
  const std::string net =
      "netconfig = start\n"                    // 1
      "layer[in->h] = fullc:fc1\n"             // 2
      "  nhidden = 3\n"                        // 3
      "  beta1 = 0.25\n"                       // 4
      "  bias:epsilon = 0.5\n"                 // 5
      "  momentum_schedule = 1\n"              // 6
      "layer[h->y] = fullc:fc2\n"              // 7
      "  nhidden = 2\n"                        // 8
      "layer[y->y] = softmax\n"                // 9
      "netconfig = end\n"                      // 10
      "batch_size = 2\ninput_shape = 1,1,4\n"  // 11, 12
      "updater = adam\nbeta1 = 0.125\n"        // 13, 14
      "bias:beta2 = 0.0625\n";                 // 15
  const NetWithoutData built = Build(net);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.wmat").beta1, 0.25f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.wmat").epsilon, 1e-8f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.wmat").beta2, 0.001f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.bias").beta1, 0.25f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.bias").epsilon, 0.5f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc1.bias").beta2, 0.0625f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc2.wmat").beta1, 0.125f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc2.wmat").beta2, 0.001f);
  EXPECT_FLOAT_EQ(AdamParamsOf(built, "fc2.bias").beta2, 0.0625f);
  // adam does not read momentum_schedule: a notice, as for a global key.
  ASSERT_EQ(built.notices.size(), 1u);
  EXPECT_EQ(built.notices[0].ToString(),
            "notice: net.conf:6: 'momentum_schedule' has no effect with "
            "updater = adam (nag and sgd read it)");

  // sgd reads it: that layer's weights ramp their momentum, the others not.
  const NetWithoutData sgd = Build(absl::StrReplaceAll(
      net, {{"updater = adam", "updater = sgd"},
            {"  beta1 = 0.25", "  saturation_epoch = 4"},
            {"  bias:epsilon = 0.5", "  base_momentum = 0.25"},
            {"beta1 = 0.125", "momentum = 0.75"},
            {"bias:beta2 = 0.0625", "wmat:lr:factor = 0.5"}}));
  const auto* momentum =
      dynamic_cast<const optim::SgdUpdater<cpu, float>*>(sgd.updater.get());
  ASSERT_NE(momentum, nullptr);
  for (const char* weight : {"fc1.wmat", "fc1.bias"}) {
    const optim::MomentumParam& own = momentum->ParamsOf(weight);
    // From 0.25 to final_momentum 0.9 over 4 updates.
    EXPECT_DOUBLE_EQ(own.MomentumAt(0, std::nullopt), 0.25) << weight;
    EXPECT_NEAR(own.MomentumAt(2, std::nullopt), 0.25 + 0.65 / 2, 1e-6)
        << weight;
  }
  EXPECT_DOUBLE_EQ(momentum->ParamsOf("fc2.wmat").MomentumAt(0, std::nullopt),
                   0.75);

  // Bad values are refused at their line, naming the weight.
  EXPECT_EQ(
      BuildError(absl::StrReplaceAll(net, {{"beta1 = 0.25", "beta1 = 2"}})),
      "net.conf:4: updater 'adam': weight 'fc1.wmat': AdamParam: key "
      "'beta1': expected float in [0, 1], got '2'");
  EXPECT_THAT(
      BuildError(
          absl::StrReplaceAll(net, {{"updater = adam", "updater = sgd"},
                                    {"  beta1 = 0.25", "  nhidden = 3"}})),
      ::testing::HasSubstr("net.conf:6: updater 'sgd': weight 'fc1.wmat': "
                           "momentum_schedule = 1 needs saturation_epoch"));
  EXPECT_EQ(BuildError(net + "gamma:beta1 = 0.5\n"),
            "net.conf:16: 'gamma:beta1': no weight of the net has the tag "
            "'gamma'");
}

TEST(NetSetupTest, MetricLinesAreCheckedWithoutData) {
  EXPECT_EQ(
      BuildError(std::string(kExtraNet) +
                 "extra_data_shape[1] = 1,1,2\nmetric[label,yy] = error\n"),
      "net.conf:11: metric 'error': the net has no node 'yy'; did you "
      "mean 'y'? Nodes: in, in_1, x, y");
}

// The ranks of a data-parallel run on one machine share it: plain `gpu` is
// one GPU per rank, `gpu:N` would put them all on one, and nthread = 0
// divides the cores among them.
TEST(DeviceTest, LocalRanksShareTheMachine) {
  try {
    SetUpDevice(ParseDevice("gpu:1"), 0, {/*rank=*/0, /*size=*/2});
    ADD_FAILURE() << "expected a DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dev = gpu:1 with 2 ranks on this machine: every rank would use "
              "GPU 1; write dev = gpu (local rank r uses GPU r)");
  }
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int ranks : {2, 3, 64}) {
    SetUpDevice(ParseDevice("cpu"), 0, {/*rank=*/1, ranks});
    EXPECT_EQ(GetNumThreads(), std::max(1, cores / ranks)) << ranks;
  }
  SetUpDevice(ParseDevice("cpu"), 3, {/*rank=*/1, 2});
  EXPECT_EQ(GetNumThreads(), 3);  // a user's nthread stands
  SetUpDevice(ParseDevice("cpu"), 0);
  EXPECT_EQ(GetNumThreads(), std::max(1, cores));
}

}  // namespace
}  // namespace train
}  // namespace umbra
