// Everything the config can get wrong is reported before any data is read:
// here the training data is a CSV that would fail at its first row, so an
// error about anything else shows the check came first.
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

}  // namespace
}  // namespace train
}  // namespace umbra
