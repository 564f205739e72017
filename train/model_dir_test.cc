// What a training run does with its model_dir so that nothing the user had
// is lost: a second run on a held directory is refused and changes
// nothing; continue = 1 refuses metrics without a checkpoint and starts
// from model_in when there is no checkpoint yet; an empty model_dir and a
// path too long for the file system are refused before anything is made;
// an interrupted run's temporary files are removed.
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/model_dir_lock.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using ::testing::HasSubstr;
using testing::MetricRowsWithoutTimings;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;
using testing::WriteText;

// Every file of `dir` (not recursive) and its content.
std::map<std::string, std::string> Contents(const std::string& dir) {
  std::map<std::string, std::string> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (const dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    files[name] =
        entry->d_type == DT_DIR ? "(dir)" : ReadText(dir + "/" + name);
  }
  closedir(handle);
  return files;
}

// What the run refused with, or "(trained)".
std::string Refusal(const std::string& dir,
                    const std::vector<std::string>& overrides) {
  try {
    RunTrainer(dir, BlobsConfig(dir), overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(trained)";
}

TEST(ModelDirTest, ASecondRunOnAHeldModelDirChangesNothing) {
  const std::string dir = NewTestDir("held");
  RunTrainer(dir, BlobsConfig(dir), {"num_round=1"});
  const std::string models = dir + "/models";
  // The lock of a run that is still training.
  ModelDirLock running(models, /*saves_checkpoints=*/true);
  const auto before = Contents(models);
  for (const std::vector<std::string>& overrides :
       std::vector<std::vector<std::string>>{{"num_round=2", "continue=1"},
                                             {"num_round=1"}}) {
    EXPECT_THAT(
        Refusal(dir, overrides),
        HasSubstr("model_dir '" + models + "' is in use by another run (pid " +
                  std::to_string(getpid()) + " on host "));
  }
  EXPECT_EQ(Contents(models), before);
}

TEST(ModelDirTest, ContinueRefusesMetricsWithoutACheckpoint) {
  const std::string dir = NewTestDir("nosave");
  RunTrainer(dir, BlobsConfig(dir), {"num_round=2", "save_model=0"});
  const std::string metrics = ReadText(dir + "/models/metrics.csv");
  EXPECT_THAT(Refusal(dir, {"num_round=3", "continue=1"}),
              HasSubstr("continue = 1, but model_dir '" + dir +
                        "/models' holds metrics.csv and no checkpoint "
                        "(written by the run of pid " +
                        std::to_string(getpid())));
  EXPECT_THAT(Refusal(dir, {"num_round=3", "continue=1"}),
              HasSubstr(", which ended and saved no checkpoints)"));
  EXPECT_EQ(ReadText(dir + "/models/metrics.csv"), metrics);
}

TEST(ModelDirTest, ContinueStartsOverAfterARunKilledBeforeItsFirstCheckpoint) {
  const std::string dir = NewTestDir("killed_early");
  const std::string models = dir + "/models";
  RunTrainer(dir, BlobsConfig(dir),
             {"num_round=2", "model_dir=" + dir + "/whole"});
  // A run that wrote round 1's row (cut short) and was killed before its
  // first checkpoint.
  MakeDirectories(models);
  const pid_t killed = fork();
  if (killed == 0) {
    ModelDirLock lock(models, /*saves_checkpoints=*/true);
    WriteText(models + "/metrics.csv", "round,elapsed_s,images_per_s\n1,0.");
    raise(SIGKILL);
  }
  waitpid(killed, nullptr, 0);
  const std::string out = RunTrainer(dir, BlobsConfig(dir),
                                     {"num_round=2", "continue=1", "silent=0"});
  EXPECT_THAT(
      out, HasSubstr("no checkpoint in '" + models + "'; starting at round 0"));
  EXPECT_THAT(out, HasSubstr("removed 1 row of rounds after round 0"));
  EXPECT_EQ(MetricRowsWithoutTimings(models + "/metrics.csv"),
            MetricRowsWithoutTimings(dir + "/whole/metrics.csv"));
}

TEST(ModelDirTest, ContinueWithoutACheckpointStartsFromModelIn) {
  const std::string dir = NewTestDir("retried");
  RunTrainer(dir, BlobsConfig(dir),
             {"num_round=2", "model_dir=" + dir + "/first"});
  const std::string out =
      RunTrainer(dir, BlobsConfig(dir),
                 {"num_round=3", "continue=1", "silent=0",
                  "model_in=" + CheckpointPath(dir + "/first", 2)});
  EXPECT_THAT(out, HasSubstr("continue = 1: no checkpoint in '" + dir +
                             "/models' yet; starting from model_in '" + dir +
                             "/first/0002.model'"));
  EXPECT_THAT(out, HasSubstr("[3]"));
  EXPECT_FALSE(absl::StrContains(out, "[1]"));
  EXPECT_EQ(NewestCheckpoint(dir + "/models"),
            CheckpointPath(dir + "/models", 3));
}

TEST(ModelDirTest, AnEmptyModelDirIsRefused) {
  const std::string dir = NewTestDir("empty");
  const std::string config = absl::StrReplaceAll(
      BlobsConfig(dir),
      {{"model_dir = \"" + dir + "/models\"", "model_dir = \"\""}});
  try {
    RunTrainer(dir, config, {"num_round=1"});
    ADD_FAILURE() << "trained";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("model_dir is empty: a training run"));
  }
}

TEST(ModelDirTest, APathTooLongIsRefusedBeforeAnythingIsMade) {
  const std::string dir = NewTestDir("long");
  EXPECT_THAT(Refusal(dir, {"num_round=1", "model_dir=" + dir + "/" +
                                               std::string(300, 'a') + "/m"}),
              HasSubstr("has 300 bytes, the limit is 255"));
  std::string deep = dir;
  while (deep.size() < 5000) deep += "/" + std::string(100, 'b');
  const std::string refusal =
      Refusal(dir, {"num_round=1", "model_dir=" + deep});
  EXPECT_THAT(refusal, HasSubstr("the limit is 4095"));
  // The message quotes the path short.
  EXPECT_LT(refusal.size(), 600u) << refusal;
  // No directory was made (the test's own files aside).
  for (const auto& [name, content] : Contents(dir)) {
    EXPECT_NE(content, "(dir)") << name;
  }
}

TEST(ModelDirTest, AnInterruptedRunsTemporaryFilesAreRemoved) {
  const std::string dir = NewTestDir("interrupted");
  RunTrainer(dir, BlobsConfig(dir), {"num_round=2"});
  const std::string models = dir + "/models";
  WriteText(models + "/0003.model.tmp-99999", "half a checkpoint");
  WriteText(models + "/metrics.csv.tmp-12345", "half a rewrite");
  const std::string out = RunTrainer(dir, BlobsConfig(dir),
                                     {"num_round=3", "continue=1", "silent=0"});
  EXPECT_THAT(out, HasSubstr("removed 2 temporary files that an interrupted "
                             "run left in '" +
                             models +
                             "': 0003.model.tmp-99999, "
                             "metrics.csv.tmp-12345"));
  const auto after = Contents(models);
  EXPECT_EQ(after.count("0003.model.tmp-99999"), 0u);
  EXPECT_EQ(after.count("metrics.csv.tmp-12345"), 0u);
  EXPECT_EQ(after.count("0003.model"), 1u);
}

}  // namespace
}  // namespace train
}  // namespace umbra
