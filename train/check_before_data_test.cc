// Everything the config can get wrong is reported before any data is read:
// here the training data is a CSV that would fail at its first row, so an
// error about anything else shows the check came first.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/net_setup.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using ::testing::HasSubstr;
using testing::NewTestDir;
using testing::RunTrainer;
using testing::WriteText;

// The error of running BlobsConfig(dir) edited by `config_edits`, its
// training CSV replaced by a broken one, with `overrides`.
std::string ErrorWithBrokenTrainingData(
    const std::string& name,
    const std::vector<std::pair<std::string, std::string>>& config_edits,
    const std::vector<std::string>& overrides) {
  const std::string dir = NewTestDir(name);
  const std::string config =
      absl::StrReplaceAll(BlobsConfig(dir), config_edits);
  WriteText(dir + "/train.csv", "this is not a number,1,2\n");
  try {
    RunTrainer(dir, config, overrides);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(trained)";
}

TEST(CheckBeforeDataTest, ABadUpdaterValueComesFirst) {
  EXPECT_THAT(
      ErrorWithBrokenTrainingData("eta", {}, {"eta=0.1x", "input_shape=1,1,8"}),
      HasSubstr("got '0.1x'"));
}

TEST(CheckBeforeDataTest, AMissingEvalFileComesFirst) {
  EXPECT_THAT(
      ErrorWithBrokenTrainingData("eval", {{"/test.csv", "/missing.csv"}}, {}),
      HasSubstr("in eval test, iterator csv: key 'filename': cannot open '"));
}

// Each error the trainer gives before reading data about the task's blocks
// and files, and //tools:check's CheckTaskData gives the same.
TEST(CheckBeforeDataTest, TheCheckerRefusesWhatTheTrainerRefuses) {
  const std::vector<
      std::pair<std::vector<std::pair<std::string, std::string>>, std::string>>
      cases = {
          {{{"iter = csv\n  filename = \"DIR/train.csv\"",
             "iter = threadbuffer\niter = csv\n  filename = "
             "\"DIR/train.csv\""}},
           "iterator 'threadbuffer' wraps the stage before it and cannot "
           "come first"},
          {{{"num_round = 4", "task = pred"}},
           "task = pred and task = extract need a `pred = FILE` block"},
          {{{"num_round = 4", "task = finetune"}},
           "task = finetune needs model_in = <checkpoint>"},
          // Settings that name no files, at their line.
          {{{"iter = csv\n  filename = \"DIR/train.csv\"",
             "iter = imgbin\n  image_conf_prefix = \"DIR/tr_%s\"\n  "
             "image_conf_ids = 0-1"}},
           "net.conf:4: in data train, iterator imgbin: key "
           "'image_conf_prefix': "},
          // A weight tag before a key that is no layer's.
          {{{"num_round = 4", "num_round = 4\nbias:batch_size = 2"}},
           "'batch_size' is not a layer key: a weight tag goes only before a "
           "layer's key (wmat:lr, bias:wd); write 'batch_size'"},
          {{{"eval = test\niter = csv\n  filename = \"DIR/test.csv\"\n  "
             "silent = 1\niter = end\n",
             ""},
            {"num_round = 4", "task = eval"}},
           "task = eval needs at least one `eval = NAME` block"},
          {{{"data = train\niter = csv\n  filename = \"DIR/train.csv\"\n  "
             "shuffle = 1\n  silent = 1\niter = end\n",
             ""}},
           "training needs a `data = train` block"},
      };
  for (const auto& [edits, expected] : cases) {
    const std::string dir = NewTestDir("task_data");
    std::string config = BlobsConfig(dir);
    for (const auto& [from, to] : edits) {
      config = absl::StrReplaceAll(config,
                                   {{absl::StrReplaceAll(from, {{"DIR", dir}}),
                                     absl::StrReplaceAll(to, {{"DIR", dir}})}});
    }
    std::string trainer_error = "(no error)";
    try {
      RunTrainer(dir, config, {});
    } catch (const ConfigError& e) {
      trainer_error = e.what();
    }
    EXPECT_THAT(trainer_error, HasSubstr(expected)) << config;
    std::string checker_error = "(no error)";
    try {
      CheckTaskData(CheckConfig(LoadTrainConfig(dir + "/net.conf")));
    } catch (const ConfigError& e) {
      checker_error = e.what();
    }
    EXPECT_EQ(checker_error, trainer_error);
  }
}

// rmse on a 3-class softmax (3 outputs, 1 label column) is refused by the
// trainer before the first round, and by the checker without data; on a
// node of one output it is fine.
TEST(CheckBeforeDataTest, RmseOnAClassifierIsRefusedBeforeTraining) {
  const std::string dir = NewTestDir("rmse");
  const std::string config = absl::StrReplaceAll(
      BlobsConfig(dir), {{"metric = error", "metric = rmse"}});
  std::string trainer_error = "(no error)";
  try {
    RunTrainer(dir, config, {});
  } catch (const ConfigError& e) {
    trainer_error = e.what();
  }
  EXPECT_THAT(trainer_error,
              HasSubstr("metric 'rmse' compares each output with a target, "
                        "but the net gives 3 outputs per instance and label "
                        "field 'label' has 1 column (a class index"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/models/0001.model"));
  std::string checker_error = "(no error)";
  try {
    BuildNetWithoutData(
        LoadTrainConfig(dir + "/net.conf", {"input_shape=1,1,8"}));
  } catch (const ConfigError& e) {
    checker_error = e.what();
  }
  EXPECT_EQ(checker_error, trainer_error);
  // One output per instance: rmse has its one target.
  const std::string one_output = absl::StrReplaceAll(
      config, {{"layer[out->out] = softmax",
                "layer[out->one] = fullc:fc3\n  nhidden = 1\n"
                "layer[one->one] = l2_loss"},
               {"metric = logloss", ""}});
  EXPECT_NO_THROW(RunTrainer(dir, one_output, {"num_round=1"}));
}

}  // namespace
}  // namespace train
}  // namespace umbra
