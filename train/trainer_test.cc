// End-to-end tests of the Trainer on a small separable data set: training
// reaches near-zero error, a resumed run is bit-identical to an
// uninterrupted one, and the pred, eval and finetune tasks work.
#include "train/trainer.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "train/checkpoint.h"
#include "train/config.h"
#include "train/device.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::LastMetric;
using testing::NewTestDir;
using testing::RunTrainer;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TrainerTest, LearnsSeparableBlobs) {
  const std::string dir = NewTestDir("blobs");
  const std::string out = RunTrainer(dir, BlobsConfig(dir), {});
  EXPECT_LE(LastMetric(out, "test-error"), 0.02) << out;
  EXPECT_LE(LastMetric(out, "train-error"), 0.05) << out;
  EXPECT_GE(LastMetric(out, "test-logloss"), 0.0) << out;
  EXPECT_NE(out.find("[4]\telapsed:"), std::string::npos) << out;
  EXPECT_NE(out.find("images/s:"), std::string::npos) << out;
  const std::vector<std::string> csv = absl::StrSplit(
      ReadAll(dir + "/models/metrics.csv"), '\n', absl::SkipEmpty());
  ASSERT_EQ(csv.size(), 5u);
  EXPECT_EQ(csv[0],
            "round,elapsed_s,images_per_s,train-error,train-logloss,"
            "test-error,test-logloss");
  EXPECT_EQ(NewestCheckpoint(dir + "/models"), dir + "/models/0004.model");
}

// The weights and updater state of a checkpoint, as bytes by name.
std::vector<std::string> StateBytes(const Checkpoint& checkpoint) {
  std::vector<std::string> bytes;
  for (const TensorProto& t : checkpoint.weights()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  for (const TensorProto& t : checkpoint.states()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  for (const TensorProto& t : checkpoint.updater().tensors()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  return bytes;
}

// The blobs net with a batch_norm layer (moving averages to save).
std::string BatchNormConfig(const std::string& dir) {
  std::string config = BlobsConfig(dir);
  config.replace(config.find("layer[h->h] = relu"), 18,
                 "layer[h->h] = batch_norm:bn1\nlayer[h->h] = relu");
  return config;
}

class ResumeTest : public ::testing::TestWithParam<bool> {};

TEST_P(ResumeTest, IsBitIdentical) {
  const bool batch_norm = GetParam();
  auto config = [&](const std::string& dir) {
    return batch_norm ? BatchNormConfig(dir) : BlobsConfig(dir);
  };
  const std::string whole = NewTestDir("resume_whole");
  const std::string whole_out = RunTrainer(whole, config(whole), {});

  const std::string split = NewTestDir("resume_split");
  RunTrainer(split, config(split), {"num_round=2"});
  const std::string resumed_out =
      RunTrainer(split, config(split), {"continue=1"});
  EXPECT_NE(resumed_out.find("[3]"), std::string::npos) << resumed_out;
  EXPECT_EQ(resumed_out.find("[2]"), std::string::npos) << resumed_out;

  const Checkpoint a = ReadCheckpoint(whole + "/models/0004.model");
  const Checkpoint b = ReadCheckpoint(split + "/models/0004.model");
  EXPECT_EQ(a.num_update(), b.num_update());
  EXPECT_EQ(a.rng().data_passes(), 4);
  EXPECT_EQ(b.rng().data_passes(), 4);
  EXPECT_EQ(b.metrics_size(), 4);
  EXPECT_EQ(b.states_size(), batch_norm ? 2 : 0);
  const std::vector<std::string> wa = StateBytes(a), wb = StateBytes(b);
  ASSERT_EQ(wa.size(), wb.size());
  ASSERT_FALSE(wa.empty());
  for (size_t i = 0; i < wa.size(); ++i) {
    EXPECT_TRUE(wa[i] == wb[i]) << "tensor " << i << " differs";
  }
  EXPECT_EQ(LastMetric(whole_out, "test-logloss"),
            LastMetric(resumed_out, "test-logloss"));
  EXPECT_LE(LastMetric(resumed_out, "test-error"), 0.02) << resumed_out;
}

INSTANTIATE_TEST_SUITE_P(PlainAndBatchNorm, ResumeTest, ::testing::Bool());

TEST(TrainerTest, PredEvalAndFinetune) {
  const std::string dir = NewTestDir("tasks");
  const std::string config =
      BlobsConfig(dir) +
      absl::StrCat("pred = \"", dir, "/pred.txt\"\niter = csv\n  filename = \"",
                   dir, "/test.csv\"\n  silent = 1\niter = end\n");
  RunTrainer(dir, config, {});

  RunTrainer(dir, config, {"task=pred"});
  std::vector<std::string> lines =
      absl::StrSplit(ReadAll(dir + "/pred.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  int right = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    right += lines[i] == std::to_string(i % 3);
  }
  EXPECT_GE(right, 88);

  RunTrainer(dir, config, {"task=pred", "output_prob=1"});
  lines = absl::StrSplit(ReadAll(dir + "/pred.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ' ')).size(), 3u);

  RunTrainer(dir, config, {"task=extract", "extract_node=h"});
  lines = absl::StrSplit(ReadAll(dir + "/pred.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ' ')).size(),
            16u);

  const std::string eval = RunTrainer(dir, config, {"task=eval"});
  EXPECT_NE(eval.find("[eval]\ttest-error:"), std::string::npos) << eval;

  const std::string tuned =
      RunTrainer(dir, config,
                 {"task=finetune", "num_round=1",
                  absl::StrCat("model_in=", dir, "/models/0004.model"),
                  absl::StrCat("model_dir=", dir, "/tuned"), "silent=0"});
  EXPECT_NE(tuned.find("finetune: loaded 4 weights"), std::string::npos)
      << tuned;
  EXPECT_LE(LastMetric(tuned, "test-error"), 0.02) << tuned;
}

TEST(TrainerTest, SharedLayerTrainsAndIsSavedOnce) {
  const std::string dir = NewTestDir("share");
  std::string config = BlobsConfig(dir);
  const size_t begin = config.find("layer[in->h]");
  const size_t end = config.find("netconfig = end");
  config.replace(begin, end - begin,
                 "layer[in->h] = fullc:fc1\n"
                 "  nhidden = 8\n"
                 "layer[h->h] = relu\n"
                 "layer[h->g] = share[fc1]\n"
                 "layer[g->g] = relu\n"
                 "layer[g->out] = fullc:fc2\n"
                 "  nhidden = 3\n"
                 "layer[out->out] = softmax\n");
  const std::string out = RunTrainer(dir, config, {"silent=0"});
  EXPECT_NE(out.find("share_2          share[fc1]"), std::string::npos) << out;
  EXPECT_LE(LastMetric(out, "test-error"), 0.05) << out;
  const Checkpoint checkpoint = ReadCheckpoint(dir + "/models/0004.model");
  std::vector<std::string> names;
  for (const TensorProto& t : checkpoint.weights()) names.push_back(t.name());
  EXPECT_EQ(names, (std::vector<std::string>{"fc1.wmat", "fc1.bias", "fc2.wmat",
                                             "fc2.bias"}));
  std::vector<std::string> updater_tensors;
  for (const TensorProto& t : checkpoint.updater().tensors()) {
    updater_tensors.push_back(t.name());
  }
  EXPECT_EQ(updater_tensors.size(), 4u);  // one momentum per weight
  // The resumed run loads the one copy back into both uses.
  const std::string resumed =
      RunTrainer(dir, config, {"continue=1", "num_round=5", "silent=0"});
  EXPECT_NE(resumed.find("resumed from"), std::string::npos) << resumed;
  EXPECT_LE(LastMetric(resumed, "test-error"), 0.05) << resumed;
}

TEST(TrainerTest, NonFiniteLossNamesTheLayer) {
  const std::string dir = NewTestDir("nan");
  try {
    RunTrainer(dir, BlobsConfig(dir), {"eta=1e30", "momentum=0"});
    FAIL() << "expected a TrainingError";
  } catch (const TrainingError& e) {
    EXPECT_NE(std::string(e.what()).find("the loss is"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("first layer whose output holds"),
              std::string::npos)
        << e.what();
  }
}

TEST(TrainerTest, GpuWithoutCudaSaysHowToRebuild) {
  const std::string dir = NewTestDir("gpu");
  if (BuiltWithCuda()) GTEST_SKIP() << "a CUDA build";
  try {
    RunTrainer(dir, BlobsConfig(dir), {"dev=gpu:1"});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--config=cuda"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.location().argument, 2) << e.what();
  }
}

TEST(TrainerTest, BadKeysNeverStartTraining) {
  const std::string dir = NewTestDir("badkey");
  std::string config = BlobsConfig(dir);
  config.replace(config.find("nhidden = 16"), 12, "nhiden = 16");
  try {
    RunTrainer(dir, config, {});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.location().line, 15) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'nhidden'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(NewestCheckpoint(dir + "/models").has_value());
}

}  // namespace
}  // namespace train
}  // namespace umbra
