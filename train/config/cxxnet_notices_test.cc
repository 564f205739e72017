// cxxnet keys without effect: dropped with a notice at their line, wherever
// they are written; net_type other than 0 is refused; look-alike typos and
// keys with a real meaning are left for the key checks.
#include "train/config/cxxnet_notices.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::ConfigErrorOf;
using ::testing::HasSubstr;

const char kConfig[] = R"(train_eval = 1
sync = simple
data = train
iter = mnist
  path_img = "a"
  init_sparse = 10
  silent = 1
iter = end
netconfig = start
layer[in->h] = conv:c1
  nchannel = 4
  algo = fast
  silent = 1
  wmat:init_sparse = 3
layer[h->out] = fullc:fc
  force_contiguous = 1
  wmat:lr:start_iteration = 100
netconfig = end
silent = 1
)";

// "LINE:KEY" of each notice, in order.
std::vector<std::string> Noticed(const std::vector<ConfigNotice>& notices) {
  std::vector<std::string> noticed;
  for (const ConfigNotice& notice : notices) {
    noticed.push_back(absl::StrCat(notice.location.line, ":", notice.key));
  }
  return noticed;
}

TEST(CxxnetNoticesTest, DroppedWithANoticeWhereverWritten) {
  TrainConfig config =
      BuildTrainConfig(ParseConfigText(kConfig, "old.conf"),
                       ParseCommandLineOverrides({"lr:start_iteration=5"}, 2));
  const std::vector<ConfigNotice> notices = ReadCxxnetForms(&config);
  EXPECT_EQ(Noticed(notices),
            (std::vector<std::string>{
                "1:train_eval", "2:sync", "6:init_sparse", "12:algo",
                "13:silent", "14:wmat:init_sparse", "16:force_contiguous",
                "17:wmat:lr:start_iteration", "0:lr:start_iteration"}));
  EXPECT_EQ(notices.back().ToString(),
            "notice: command line: argument 2: 'lr:start_iteration' has no "
            "effect: no cxxnet version read it (cxxnet's updater doc meant "
            "lr:start_epoch)");
  EXPECT_EQ(notices[4].ToString(),
            "notice: old.conf:13: 'silent' has no effect: cxxnet's layers "
            "never read it (silent is a global and iterator key)");
  // What has a meaning stays: the iterator's and the global silent.
  ASSERT_NE(config.FindGlobal("silent"), nullptr);
  EXPECT_EQ(config.iterators[0].stages[0].settings.size(), 2u);
  EXPECT_EQ(config.net.layers[0].settings.size(), 1u);  // nchannel
  EXPECT_TRUE(config.net.layers[1].settings.empty());
  EXPECT_EQ(config.FindGlobal("train_eval"), nullptr);
}

TEST(CxxnetNoticesTest, NetTypeZeroIsInertOthersAreRefused) {
  TrainConfig zero = ParseTrainConfigText("net_type = 0\n", "a.conf");
  EXPECT_EQ(Noticed(ReadCxxnetForms(&zero)),
            (std::vector<std::string>{"1:net_type"}));
  TrainConfig averaging =
      ParseTrainConfigText("dev = cpu\nnet_type = 1\n", "a.conf");
  EXPECT_THAT(ConfigErrorOf([&] { ReadCxxnetForms(&averaging); }),
              HasSubstr("a.conf:2: net_type = 1 chose cxxnet's 2014 averaging "
                        "trainer"));
}

TEST(CxxnetNoticesTest, MultiDeviceAndServerFormsSayWhatToDoInstead) {
  for (const char* line :
       {"dev = gpu:0-3", "dev = gpu:0,1", "param_server = dist",
        "update_on_server = 1", "dist_num_worker = 4"}) {
    TrainConfig config = ParseTrainConfigText(
        absl::StrCat("batch_size = 2\n", line, "\n"), "multi.conf");
    const std::string error = ConfigErrorOf([&] { ReadCxxnetForms(&config); });
    EXPECT_THAT(error, HasSubstr("multi.conf:2: ")) << line;
    EXPECT_THAT(error, HasSubstr("mpirun -np 4 bazel-bin/train/train CONFIG "
                                 "dist=mpi"))
        << line;
  }
  TrainConfig one_gpu = ParseTrainConfigText("dev = gpu:1\n", "a.conf");
  EXPECT_TRUE(ReadCxxnetForms(&one_gpu).empty());
  // A later setting (dev=cpu on the command line) replaces cxxnet's.
  TrainConfig replaced =
      ParseTrainConfigText("dev = gpu:0-3\ndev = cpu\n", "a.conf");
  EXPECT_TRUE(ReadCxxnetForms(&replaced).empty());
}

// cxxnet's example/MNIST/mpi.conf is its launcher's file, not a config.
TEST(CxxnetNoticesTest, TheParameterServerLaunchersKeysSayWhatToDoInstead) {
  TrainConfig config =
      ParseTrainConfigText("num_servers=2\nnum_workers=2\n", "mpi.conf");
  const std::string error = ConfigErrorOf([&] { ReadCxxnetForms(&config); });
  EXPECT_THAT(error, HasSubstr("mpi.conf:1: 'num_servers' is a key of "
                               "cxxnet's parameter-server launcher"));
  EXPECT_THAT(error, HasSubstr("dist=mpi"));
}

TEST(CxxnetNoticesTest, EtaPrefixIsLr) {
  TrainConfig config = ParseTrainConfigText(
      "eta:schedule = expdecay\neta = 0.1\nwmat:eta:step = 5\nbeta1 = 0.1\n"
      "eta:start_iteration = 4\n",
      "a.conf");
  const std::vector<ConfigNotice> notices = ReadCxxnetForms(&config);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].key, "eta:start_iteration");
  std::vector<std::string> keys;
  for (const ConfigEntry& entry : config.globals) keys.push_back(entry.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"lr:schedule", "eta",
                                            "wmat:lr:step", "beta1"}));
}

TEST(CxxnetNoticesTest, SeedDataSeedsEveryDataBlock) {
  TrainConfig config = ParseTrainConfigText(
      "seed = 3\nseed_data = 11\ndata = train\niter = mnist\n  path_img = "
      "\"a\"\niter = threadbuffer\niter = end\neval = test\niter = "
      "mnist\n  seed_data = 5\niter = end\n",
      "a.conf");
  ReadCxxnetForms(&config);
  ASSERT_EQ(config.globals.size(), 1u);
  EXPECT_EQ(config.globals[0].key, "seed");
  const std::vector<ConfigEntry>& train =
      config.iterators[0].stages[0].settings;
  ASSERT_EQ(train.size(), 2u);
  EXPECT_EQ(train[0].key, "seed");
  EXPECT_EQ(train[0].value, "11");
  EXPECT_EQ(train[0].location.line, 2);
  // The block's own comes last: it wins.
  const std::vector<ConfigEntry>& test = config.iterators[1].stages[0].settings;
  ASSERT_EQ(test.size(), 2u);
  EXPECT_EQ(test[1].key, "seed");
  EXPECT_EQ(test[1].value, "5");
}

TEST(CxxnetNoticesTest, InsanityIsRRelu) {
  TrainConfig config = ParseTrainConfigText(
      "netconfig = start\nlayer[in->out] = insanity:ins\n  lb = 3\n"
      "  calm_start = 0\n  calm_end = 100\nnetconfig = end\n",
      "a.conf");
  EXPECT_EQ(Noticed(ReadCxxnetForms(&config)),
            (std::vector<std::string>{"4:calm_start", "5:calm_end"}));
  EXPECT_EQ(config.net.layers[0].type, "rrelu");
  EXPECT_EQ(config.net.layers[0].name, "ins");
  ASSERT_EQ(config.net.layers[0].settings.size(), 1u);
  EXPECT_EQ(config.net.layers[0].settings[0].key, "lb");
  TrainConfig calming = ParseTrainConfigText(
      "netconfig = start\nlayer[in->out] = insanity\n  calm_start = -1\n"
      "netconfig = end\n",
      "a.conf");
  EXPECT_THAT(ConfigErrorOf([&] { ReadCxxnetForms(&calming); }),
              HasSubstr("a.conf:3: calm_start < 0 ran cxxnet's calm schedule"));
}

TEST(CxxnetNoticesTest, BatchNormNoMaIsBatchNormWithBatchStats) {
  TrainConfig config = ParseTrainConfigText(
      "netconfig = start\nlayer[in->out] = batch_norm_no_ma:bn\n"
      "  eps = 0.01\nnetconfig = end\n",
      "a.conf");
  EXPECT_TRUE(ReadCxxnetForms(&config).empty());
  const LayerDeclaration& layer = config.net.layers[0];
  EXPECT_EQ(layer.type, "batch_norm");
  EXPECT_EQ(layer.name, "bn");
  ASSERT_EQ(layer.settings.size(), 2u);
  EXPECT_EQ(layer.settings[0].ToString(), "use_batch_stats = 1");
  EXPECT_EQ(layer.settings[0].location.line, 2);
  EXPECT_EQ(layer.settings[1].key, "eps");
}

// cxxnet's example/cifar10.conf of 2014: its cifar iterator's keys, and
// random types by number.
TEST(CxxnetNoticesTest, TheCifarIteratorAndRandomTypesOf2014) {
  TrainConfig config = ParseTrainConfigText(
      "data = train\n"                   // 1
      "iter = cifar\n"                   // 2
      "  path = \"../data/cifar10/\"\n"  // 3
      "  input_flat = 0\n"               // 4
      "  batch2 = 1\n"                   // 5
      "  batch1 = 1\n"                   // 6
      "  batch3 = 0\n"                   // 7
      "  image_mean = \"m.bin\"\n"       // 8
      "iter = end\n"                     // 9
      "eval = test\n"                    // 10
      "iter = cifar\n"                   // 11
      "  path = \"c/\"\n"                // 12
      "  test = 1\n"                     // 13
      "  divideby = 255\n"               // 14
      "iter = end\n"                     // 15
      "netconfig = start\n"              // 16
      "layer[+1] = fullc\n"              // 17
      "  random_type = 1\n"              // 18
      "netconfig = end\n"
      "wmat:random_type = 0\n",  // 20
      "cifar10.conf");
  EXPECT_EQ(
      Noticed(ReadCxxnetForms(&config)),
      (std::vector<std::string>{"4:input_flat", "8:image_mean",
                                "18:random_type", "20:wmat:random_type"}));
  std::vector<std::string> train;
  for (const ConfigEntry& entry : config.iterators[0].stages[0].settings) {
    train.push_back(entry.ToString());
  }
  EXPECT_EQ(train, (std::vector<std::string>{
                       "path_data = ../data/cifar10/data_batch_2.bin,../data/"
                       "cifar10/data_batch_1.bin",
                       "divideby = 256"}));
  std::vector<std::string> test;
  for (const ConfigEntry& entry : config.iterators[1].stages[0].settings) {
    test.push_back(entry.ToString());
  }
  EXPECT_EQ(test, (std::vector<std::string>{"path_data = c/test_batch.bin",
                                            "divideby = 255"}));
  EXPECT_EQ(config.net.layers[0].settings[0].value, "xavier");
  EXPECT_EQ(config.globals.back().value, "gaussian");
}

TEST(CxxnetNoticesTest, ImageRootOfAPackHasNoEffect) {
  TrainConfig config = ParseTrainConfigText(
      "data = train\niter = imgbin\n  image_root = \"pics/\"\n"
      "  image_list = \"a.lst\"\niter = end\n",
      "alex.conf");
  EXPECT_EQ(Noticed(ReadCxxnetForms(&config)),
            (std::vector<std::string>{"3:image_root"}));
  ASSERT_EQ(config.iterators[0].stages[0].settings.size(), 1u);
  EXPECT_EQ(config.iterators[0].stages[0].settings[0].key, "image_list");
  // cxxnet's early name of img.
  TrainConfig early = ParseTrainConfigText(
      "data = train\niter = image\niter = end\n", "cat_dog.conf");
  EXPECT_EQ(Noticed(ReadCxxnetForms(&early)),
            (std::vector<std::string>{"2:iter"}));
  EXPECT_EQ(early.iterators[0].stages[0].type, "img");
}

TEST(CxxnetNoticesTest, PairTestIsItsMasterLayer) {
  TrainConfig config = ParseTrainConfigText(
      "netconfig = start\nlayer[in->out] = pairtest-conv-caffe\n"
      "  nchannel = 4\n  master:kernel_size = 3\n  slave:ngroup = 1\n"
      "  mode = 1\nnetconfig = end\n",
      "cat_dog.conf");
  EXPECT_EQ(Noticed(ReadCxxnetForms(&config)),
            (std::vector<std::string>{"2:pairtest-conv-caffe", "5:slave:ngroup",
                                      "6:mode"}));
  const LayerDeclaration& layer = config.net.layers[0];
  EXPECT_EQ(layer.type, "conv");
  ASSERT_EQ(layer.settings.size(), 2u);
  EXPECT_EQ(layer.settings[1].key, "kernel_size");
  TrainConfig bad = ParseTrainConfigText(
      "netconfig = start\nlayer[in->out] = pairtest-conv\nnetconfig = end\n",
      "a.conf");
  EXPECT_THAT(ConfigErrorOf([&] { ReadCxxnetForms(&bad); }),
              HasSubstr("pairtest-MASTER-SLAVE"));
}

TEST(CxxnetNoticesTest, TyposAreNotInert) {
  TrainConfig config = ParseTrainConfigText(
      "train_evl = 1\nsilent_mode = 1\nlr:start_iter = 5\n", "a.conf");
  EXPECT_TRUE(ReadCxxnetForms(&config).empty());
  EXPECT_EQ(config.globals.size(), 3u);
}

TEST(CxxnetNoticesTest, AdamBetasInTheUsualConventionGetAWarning) {
  const TrainConfig config = ParseTrainConfigText(
      "updater = adam\nbeta1 = 0.9\nbeta2 = 0.001\nnetconfig = start\n"
      "layer[in->out] = fullc\n  nhidden = 2\n  wmat:beta2 = 0.999\n"
      "netconfig = end\n",
      "adam.conf");
  const std::vector<ConfigNotice> warnings = AdamBetaWarnings(config);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].ToString(),
            "warning: adam.conf:2: beta1 = 0.9 means here, as in cxxnet, that "
            "each step weighs the new gradient by 0.9 in the first-moment "
            "average (the usual beta1 = 0.1); for the usual beta1 = 0.9 write "
            "beta1 = 0.1");
  EXPECT_EQ(warnings[1].location.line, 7);
  EXPECT_THAT(warnings[1].text,
              HasSubstr("for the usual beta2 = 0.999 write beta2 = 0.001"));
}

TEST(CxxnetNoticesTest, EveryKeyIsListedWithItsReason) {
  std::map<std::string, InertCxxnetKey> by_key;
  for (const InertCxxnetKey& inert : InertCxxnetKeyList()) {
    EXPECT_FALSE(inert.reason.empty()) << inert.key;
    by_key[inert.key] = inert;
  }
  EXPECT_THAT(by_key["train_eval"].reason, HasSubstr("cxxnet read it only"));
  EXPECT_EQ(by_key["net_type"].condition, "= 0");
  EXPECT_EQ(by_key["silent"].condition, "in a layer's settings");
  EXPECT_EQ(by_key["sync"].condition, "");
}

}  // namespace
}  // namespace train
}  // namespace umbra
