// Tests of how a config's entries are sorted into global settings, the
// network and the iterator blocks, of command-line overrides, and of every
// structural error with its exact file:line text.
#include "train/config/train_config.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BuildError;
using testing::ConfigErrorOf;

TrainConfig Build(const std::string& text,
                  const std::vector<std::string>& overrides = {}) {
  return BuildTrainConfig(ParseConfigText(text, "t.conf"),
                          ParseCommandLineOverrides(overrides, 2));
}

std::string Keys(const std::vector<ConfigEntry>& entries) {
  std::string out;
  for (const ConfigEntry& entry : entries) {
    if (!out.empty()) out += ",";
    out += entry.key;
  }
  return out;
}

TEST(TrainConfigTest, GlobalsAnywhereOutsideBlocksAndLastWins) {
  const TrainConfig config = Build(
      "dev = cpu\n"
      "netconfig = start\n"
      "wmat:lr = 0.01\n"
      "layer[0->1] = fullc:fc1\n"
      "  nhidden = 10\n"
      "netconfig = end\n"
      "eta = 0.1\n"
      "eta = 0.2\n");
  EXPECT_EQ(Keys(config.globals), "dev,wmat:lr,eta,eta");
  EXPECT_EQ(config.FindGlobal("eta")->value, "0.2");
  EXPECT_EQ(config.FindGlobal("eta")->location.line, 8);
  EXPECT_EQ(config.FindGlobal("nhidden"), nullptr);
  EXPECT_EQ(Keys(config.net.layers[0].settings), "nhidden");
}

TEST(TrainConfigTest, DefaultValueLeavesTheKeyAsItWas) {
  const TrainConfig config =
      Build("eta = 0.1\neta = default\nname = \"default\"\n");
  EXPECT_EQ(config.FindGlobal("eta")->value, "0.1");
  EXPECT_EQ(config.globals.size(), 3u);
  EXPECT_EQ(config.FindGlobal("name")->value, "default");
}

TEST(TrainConfigTest, SeveralNetconfigBlocksMakeOneNetwork) {
  const TrainConfig config = Build(
      "netconfig = start\nlayer[+1] = fullc:fc1\n  nhidden = 4\n"
      "netconfig = end\n"
      "eta = 1\n"
      "netconfig = start\n"
      "init_sigma = 0.5\n"  // before this block's first layer: global
      "layer[+1] = relu\nnetconfig = end\n");
  ASSERT_EQ(config.net.layers.size(), 2u);
  EXPECT_EQ(config.net.layers[1].inputs, config.net.layers[0].outputs);
  EXPECT_EQ(Keys(config.globals), "eta,init_sigma");
  EXPECT_EQ(Keys(config.net.layers[0].settings), "nhidden");
}

TEST(TrainConfigTest, IteratorBlocks) {
  const TrainConfig config = Build(
      "data = train\n"
      "iter = mnist\n"
      "  path_img = \"train.gz\"\n"
      "  shuffle = 1\n"
      "iter = threadbuffer\n"
      "  buffer_size = 4\n"
      "iter = end\n"
      "eval = test\n"
      "iter = mnist\n"
      "  path_img = test.gz\n"
      "iter = end\n"
      "eval = val\n"
      "iter = mnist\n"
      "iter = end\n"
      "pred = out.txt\n"
      "iter = mnist\n"
      "iter = end\n"
      "batch_size = 100\n");
  ASSERT_EQ(config.iterators.size(), 4u);
  const IteratorChain* train = config.TrainIterator();
  ASSERT_NE(train, nullptr);
  EXPECT_EQ(train->role, IteratorRole::kTrain);
  EXPECT_EQ(train->name, "train");
  EXPECT_EQ(train->Describe(), "data train");
  ASSERT_EQ(train->stages.size(), 2u);
  EXPECT_EQ(train->stages[0].type, "mnist");
  EXPECT_EQ(Keys(train->stages[0].settings), "path_img,shuffle");
  EXPECT_EQ(train->stages[0].declaration.location.line, 2);
  EXPECT_EQ(train->stages[1].type, "threadbuffer");
  EXPECT_EQ(Keys(train->stages[1].settings), "buffer_size");
  EXPECT_EQ(train->end.location.line, 7);
  const std::vector<const IteratorChain*> evals = config.EvalIterators();
  ASSERT_EQ(evals.size(), 2u);
  EXPECT_EQ(evals[0]->name, "test");
  EXPECT_EQ(evals[1]->Describe(), "eval val");
  ASSERT_NE(config.PredIterator(), nullptr);
  EXPECT_EQ(config.PredIterator()->name, "out.txt");
  EXPECT_EQ(Keys(config.globals), "batch_size");
}

TEST(TrainConfigTest, NoBlocksAtAll) {
  const TrainConfig config = Build("dev = cpu\n");
  EXPECT_EQ(config.TrainIterator(), nullptr);
  EXPECT_EQ(config.PredIterator(), nullptr);
  EXPECT_TRUE(config.EvalIterators().empty());
  EXPECT_TRUE(config.net.layers.empty());
}

TEST(TrainConfigTest, OverridesComeAfterTheFile) {
  const TrainConfig config =
      Build("num_round = 15\ndev = gpu\n", {"num_round=2", "metric=error"});
  EXPECT_EQ(Keys(config.globals), "num_round,dev,num_round,metric");
  EXPECT_EQ(config.FindGlobal("num_round")->value, "2");
  EXPECT_EQ(config.FindGlobal("num_round")->location,
            SourceLocation::CommandLine(2));
  EXPECT_EQ(config.FindGlobal("dev")->value, "gpu");
}

TEST(TrainConfigTest, OverridesSetOnlyGlobalKeys) {
  const std::string text =
      "netconfig = start\nlayer[+1] = relu\nnetconfig = end\n";
  EXPECT_EQ(ConfigErrorOf([&] {
              Build(text, {"dev=cpu", "layer[+1]=relu"});
            }),
            "command line: argument 3: 'layer[+1]' shapes the network or its "
            "data blocks and cannot be given on the command line; only global "
            "settings can be overridden there");
  EXPECT_EQ(ConfigErrorOf([&] { Build(text, {"iter=end"}); }),
            "command line: argument 2: 'iter' shapes the network or its data "
            "blocks and cannot be given on the command line; only global "
            "settings can be overridden there");
}

TEST(TrainConfigTest, LoadTrainConfigReadsFileAndArguments) {
  const std::string path = ::testing::TempDir() + "/train_config_test.conf";
  {
    std::ofstream out(path, std::ios::binary);
    out << "netconfig = start\r\nlayer[+1] = relu\r\nnetconfig = end\r\n"
           "eta = 0.1\r\n";
  }
  const TrainConfig config = LoadTrainConfig(path, {"eta=0.5"});
  EXPECT_EQ(config.FindGlobal("eta")->value, "0.5");
  EXPECT_EQ(config.globals[0].location.ToString(), path + ":4");
  EXPECT_EQ(ConfigErrorOf([&] { LoadTrainConfig(path, {"eta"}); }),
            "command line: argument 2: expected key=value, got 'eta'");
  std::remove(path.c_str());
}

TEST(TrainConfigTest, NetconfigErrors) {
  EXPECT_EQ(BuildError("netconfig = begin\n"),
            "t.conf:1: key 'netconfig': expected 'start' or 'end', got "
            "'begin'");
  EXPECT_EQ(BuildError("netconfig = start\nlayer[+1] = relu\n\neta = 1\n"),
            "t.conf:1: netconfig = start has no netconfig = end; expected "
            "netconfig = end after the last layer");
  EXPECT_EQ(BuildError("netconfig = start\nnetconfig = start\n"),
            "t.conf:2: netconfig = start inside the netconfig opened at line "
            "1; expected netconfig = end first");
  EXPECT_EQ(BuildError("eta = 1\nnetconfig = end\n"),
            "t.conf:2: netconfig = end without netconfig = start");
  EXPECT_EQ(BuildError("netconfig = start\nlayer[+1] = relu\nnetconfig = end\n"
                       "netconfig = end\n"),
            "t.conf:4: netconfig = end without netconfig = start (the "
            "netconfig block was already closed at line 3)");
  EXPECT_EQ(BuildError("dev = cpu\nlayer[0->1] = fullc:fc1\n"),
            "t.conf:2: 'layer[0->1] = fullc:fc1': a layer line outside "
            "netconfig; expected it between netconfig = start and netconfig "
            "= end");
  EXPECT_EQ(BuildError("netconfig = start\nlayer[+1] = relu\nnetconfig = end\n"
                       "layer[+1] = relu\n"),
            "t.conf:4: 'layer[+1] = relu': a layer line outside netconfig; "
            "expected it between netconfig = start and netconfig = end");
}

TEST(TrainConfigTest, IteratorBlockErrors) {
  EXPECT_EQ(BuildError("dev = cpu\niter = end\n"),
            "t.conf:2: iter = end without a block to close; expected data = "
            "train, eval = NAME or pred = FILE before the iterator");
  EXPECT_EQ(BuildError("iter = mnist\n"),
            "t.conf:1: 'iter = mnist' outside a data/eval/pred block; expected "
            "data = train, eval = NAME or pred = FILE first");
  EXPECT_EQ(BuildError("data = train\niter = mnist\n  shuffle = 1\n"),
            "t.conf:1: the data train block has no 'iter = end'; expected "
            "iter = end after its settings");
  EXPECT_EQ(BuildError("eval = test\niter = end\n"),
            "t.conf:2: the eval test block (line 1) has no iterator; expected "
            "iter = TYPE before iter = end");
  EXPECT_EQ(BuildError("data = train\n  shuffle = 1\niter = mnist\n"
                       "iter = end\n"),
            "t.conf:2: 'shuffle' in the data train block (line 1) before its "
            "first 'iter = TYPE'; expected iter = TYPE first");
  EXPECT_EQ(BuildError("data = train\niter = mnist\neval = test\n"),
            "t.conf:3: 'eval = test' inside the data train block (line 1); "
            "expected iter = end first");
  EXPECT_EQ(BuildError("data = train\niter = mnist\nnetconfig = start\n"),
            "t.conf:3: 'netconfig = start' inside the data train block (line "
            "1); expected iter = end first");
  EXPECT_EQ(BuildError("netconfig = start\ndata = train\n"),
            "t.conf:2: 'data = train' inside netconfig (opened at line 1); "
            "expected netconfig = end first");
  EXPECT_EQ(BuildError("netconfig = start\niter = end\n"),
            "t.conf:2: 'iter = end' inside netconfig (opened at line 1); "
            "iterators go in data/eval/pred blocks outside netconfig");
  EXPECT_EQ(BuildError("data = test\n"),
            "t.conf:1: key 'data': expected 'train', got 'test'; evaluation "
            "data is declared with eval = NAME");
  EXPECT_EQ(BuildError("data = train\niter = mnist\niter = end\n"
                       "data = train\niter = mnist\niter = end\n"),
            "t.conf:4: a second data block; the first is at line 1");
  EXPECT_EQ(BuildError("eval = test\niter = mnist\niter = end\n"
                       "eval = val\niter = mnist\niter = end\n"
                       "eval = test\niter = mnist\niter = end\n"),
            "t.conf:7: a second eval block named 'test'; the first is at line "
            "1");
  EXPECT_EQ(BuildError("pred = a.txt\niter = mnist\niter = end\n"
                       "pred = b.txt\niter = mnist\niter = end\n"),
            "t.conf:4: a second pred block; the first is at line 1");
}

TEST(TrainConfigTest, ErrorCarriesKeyAndLocation) {
  try {
    Build("a = 1\nnetconfig = end\n");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "netconfig");
    EXPECT_EQ(e.location().line, 2);
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
