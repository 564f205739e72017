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

}  // namespace
}  // namespace train
}  // namespace umbra
