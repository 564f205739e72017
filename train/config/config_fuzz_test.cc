// Fuzz-style tests: random bytes and random mutations of a config that uses
// every construct never crash the parser, the structure builder or the
// schema checks; ConfigError is the only exception that escapes.
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

const char kSeedConfig[] =
    "\xEF\xBB\xBF# every construct\r\n"
    "extra_data_num = 1\n"
    "data = train\n"
    "iter = mnist\n"
    "  path_img = \"a b.gz\"  # quoted\n"
    "  shuffle = 1\n"
    "iter = threadbuffer\n"
    "  buffer_size = 2\n"
    "iter = end\n"
    "eval = test\niter = mnist\n  path_label = 'x\ny'\niter = end\n"
    "pred = out.txt\niter = mnist\niter = end\n"
    "netconfig = start\n"
    "wmat:lr = 0.1\n"
    "layer[0->1] = fullc:fc1\n"
    "  nhidden = 10\n"
    "  bias:wd = 0\n"
    "layer[+1] = relu\n"
    "layer[+0] = dropout\n"
    "  threshold = default\n"
    "layer[+1:h] = fullc:fc2\n"
    "layer[h->a,b] = split\n"
    "layer[in_1->c] = share[fc1]\n"
    "layer[a,b,c->d] = concat\n"
    "layer[d->d] = softmax\n"
    "netconfig = end\n"
    "batch_size = 100\n"
    "dev = cpu\n";

const std::vector<std::string> kInterestingLines = {
    "netconfig = start",
    "netconfig = end",
    "iter = end",
    "iter = mnist",
    "data = train",
    "eval = x",
    "pred = p",
    "layer[+1] = relu",
    "layer[0->9] = fullc:fc1",
    "layer[9->9] = share[fc1]",
    "layer[+0] = x",
    "nhidden = 3",
    "\"a",
    "'a",
    "= =",
    "layer[",
    "layer[]",
    "layer[->] = :",
    "layer[+1:] = a:",
    "extra_data_num = 99999999999",
    "extra_data_num = 3",
};

const char kAlphabet[] =
    "=#\"'\\[]-><,:+!01 \t\r\nabcdefghijklmnopqrstuvwxyz_\x01\x7f\xEF\xBB\xBF";

// Runs every stage on `text`; fails the test on any exception but
// ConfigError.
void RunAll(const std::string& text, const KeySchema& schema) {
  try {
    const TrainConfig config =
        BuildTrainConfig(ParseConfigText(text, "fuzz.conf"),
                         ParseCommandLineOverrides({"dev=gpu"}, 2));
    for (const LayerDeclaration& layer : config.net.layers) {
      ToParamKwargs(LayerSettings(config, layer, schema));
      config.net.NodeNames(layer.inputs);
      config.net.NodeNames(layer.outputs);
    }
    for (const IteratorChain& chain : config.iterators) {
      for (std::size_t i = 0; i < chain.stages.size(); ++i) {
        IteratorSettings(config, chain, i, schema);
      }
    }
    ValidateTrainConfig(config, schema);
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()), "");
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception " << e.what() << " for:\n" << text;
  }
}

TEST(ConfigFuzzTest, SeedConfigIsValid) {
  KeySchema schema = testing::MnistSchema();
  const TrainConfig config = ParseTrainConfigText(kSeedConfig, "seed.conf");
  ValidateTrainConfig(config, schema);
  EXPECT_EQ(config.net.layers.size(), 8u);
  EXPECT_EQ(config.iterators.size(), 3u);
}

TEST(ConfigFuzzTest, RandomBytes) {
  const KeySchema schema = testing::MnistSchema();
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) {
      c = (rng() % 2 == 0) ? static_cast<char>(rng() % 256)
                           : kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
    }
    RunAll(text, schema);
  }
}

TEST(ConfigFuzzTest, RandomCharacterMutations) {
  const KeySchema schema = testing::MnistSchema();
  std::mt19937 rng(11);
  const std::string seed = kSeedConfig;
  for (int round = 0; round < 2000; ++round) {
    std::string text = seed;
    const int edits = 1 + rng() % 4;
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(pos, 1);
          break;
        case 1:
          text.insert(pos, 1, kAlphabet[rng() % (sizeof(kAlphabet) - 1)]);
          break;
        default:
          text[pos] = static_cast<char>(rng() % 256);
      }
    }
    RunAll(text, schema);
  }
}

TEST(ConfigFuzzTest, RandomLineMutations) {
  const KeySchema schema = testing::MnistSchema();
  std::mt19937 rng(13);
  const std::vector<std::string> seed = absl::StrSplit(kSeedConfig, '\n');
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> lines = seed;
    const int edits = 1 + rng() % 3;
    for (int e = 0; e < edits && !lines.empty(); ++e) {
      const std::size_t pos = rng() % lines.size();
      const std::size_t other = rng() % lines.size();
      switch (rng() % 5) {
        case 0:
          lines.erase(lines.begin() + pos);
          break;
        case 1:
          lines.insert(lines.begin() + pos, lines[other]);
          break;
        case 2:
          std::swap(lines[pos], lines[other]);
          break;
        case 3:
          lines[pos] = kInterestingLines[rng() % kInterestingLines.size()];
          break;
        default:
          lines.resize(pos);
      }
    }
    RunAll(absl::StrJoin(lines, rng() % 2 == 0 ? "\n" : "\r\n"), schema);
  }
}

TEST(ConfigFuzzTest, RandomCommandLineArguments) {
  std::mt19937 rng(17);
  for (int round = 0; round < 1000; ++round) {
    std::vector<std::string> args(1 + rng() % 3);
    for (std::string& arg : args) {
      arg.resize(rng() % 8);
      for (char& c : arg) c = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
    }
    try {
      BuildTrainConfig(ParseConfigText("dev = cpu\n", "a.conf"),
                       ParseCommandLineOverrides(args, 2));
    } catch (const ConfigError&) {
    }
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
