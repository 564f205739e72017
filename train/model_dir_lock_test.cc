// The lock of a model_dir: a second holder (another process) is refused
// with the first one's pid, a lock freed by its holder's death is taken
// again, a directory that cannot be written is found at once, and only
// NAME.tmp-PID files are removed as stale.
#include "train/model_dir_lock.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Runs `body` in a child process; returns its exit status.
template <typename Body>
int InChild(Body body) {
  const pid_t child = fork();
  if (child == 0) _exit(body());
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(ModelDirLockTest, ASecondRunIsRefusedWithTheHoldersPid) {
  const std::string dir = data_test::NewTempDir();
  {
    ModelDirLock lock(dir, /*saves_checkpoints=*/true);
    // flock locks belong to open files: another process sees them.
    const int status = InChild([&] {
      try {
        ModelDirLock second(dir, true);
      } catch (const ModelDirBusy& e) {
        const std::string message = e.what();
        const bool names_holder =
            message.find("in use by another run (pid " +
                         std::to_string(getppid()) + " on host ") !=
            std::string::npos;
        return names_holder ? 3 : 4;
      }
      return 5;
    });
    EXPECT_EQ(WEXITSTATUS(status), 3);
  }
  // Released: taken again.
  EXPECT_EQ(WEXITSTATUS(InChild([&] {
              ModelDirLock again(dir, true);
              return 0;
            })),
            0);
}

TEST(ModelDirLockTest, AKilledHolderLeavesNoStaleLock) {
  const std::string dir = data_test::NewTempDir();
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t holder = fork();
  if (holder == 0) {
    ModelDirLock lock(dir, /*saves_checkpoints=*/true);
    char byte = 1;
    (void)!write(ready[1], &byte, 1);
    pause();
    _exit(0);
  }
  char byte;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  EXPECT_THROW(ModelDirLock(dir, true), ModelDirBusy);
  kill(holder, SIGKILL);
  waitpid(holder, nullptr, 0);
  const LastRun killed = ReadLastRun(dir);
  EXPECT_THAT(killed.holder,
              HasSubstr(absl::StrCat("pid ", holder, " on host ")));
  EXPECT_TRUE(killed.Killed());
  EXPECT_TRUE(killed.saves_checkpoints);
  EXPECT_NO_THROW(ModelDirLock(dir, true));
  close(ready[0]);
  close(ready[1]);
}

TEST(ModelDirLockTest, TheRecordSaysHowTheLastRunEnded) {
  const std::string dir = data_test::NewTempDir();
  EXPECT_EQ(ReadLastRun(dir).holder, "");
  EXPECT_FALSE(ReadLastRun(dir).Killed());
  {
    ModelDirLock lock(dir, /*saves_checkpoints=*/false);
    // Seen from outside while held: not ended (yet).
    EXPECT_TRUE(ReadLastRun(dir).Killed());
  }
  const LastRun ended = ReadLastRun(dir);
  EXPECT_THAT(ended.holder,
              HasSubstr(absl::StrCat("pid ", getpid(), " on host ")));
  EXPECT_TRUE(ended.ended);
  EXPECT_FALSE(ended.Killed());
  EXPECT_FALSE(ended.saves_checkpoints);
  // The next holder's record replaces it.
  { ModelDirLock lock(dir, /*saves_checkpoints=*/true); }
  EXPECT_TRUE(ReadLastRun(dir).saves_checkpoints);
  EXPECT_TRUE(ReadLastRun(dir).ended);
}

TEST(ModelDirLockTest, WarnsWhenACheckpointWouldNotFit) {
  const std::string dir = data_test::NewTempDir();
  EXPECT_EQ(FreeSpaceWarning(dir, 1), "");
  // No file system has 2^62 bytes free.
  EXPECT_THAT(FreeSpaceWarning(dir, std::uint64_t{1} << 62),
              ::testing::MatchesRegex(
                  "model_dir '" + dir +
                  "' has [0-9]+\\.[0-9] MiB free, less than one checkpoint "
                  "\\(4398046511104\\.0 MiB\\): saving it will fail unless "
                  "space is freed; set another model_dir, or save_model = 0 "
                  "to save none"));
  EXPECT_EQ(FreeSpaceWarning(dir + "/missing", std::uint64_t{1} << 62), "");
}

TEST(ModelDirLockTest, AnUnwritableDirectoryIsFoundAtOnce) {
  // Root writes past file modes, but not into sysfs.
  const bool root = geteuid() == 0;
  const std::string dir = root ? "/sys" : data_test::NewTempDir();
  if (!root) {
    ASSERT_EQ(chmod(dir.c_str(), 0555), 0);
  }
  try {
    ModelDirLock lock(dir, /*saves_checkpoints=*/true);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    // sysfs answers root by its mount: read-only inside a sandbox.
    EXPECT_THAT(e.what(), ::testing::AnyOf("cannot write model_dir '" + dir +
                                               "': Permission denied",
                                           "cannot write model_dir '" + dir +
                                               "': Read-only file system"));
  }
  if (!root) chmod(dir.c_str(), 0755);
}

TEST(ModelDirLockTest, RemovesOnlyTemporaryFiles) {
  const std::string dir = data_test::NewTempDir();
  for (const char* name :
       {"0002.model.tmp-1234", "metrics.csv.tmp-99", "0002.model",
        "metrics.csv", "notes.tmp-x", ".tmp-5", "a.tmp-"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  EXPECT_THAT(RemoveStaleTemporaries(dir),
              ElementsAre("0002.model.tmp-1234", "metrics.csv.tmp-99"));
  for (const char* kept :
       {"0002.model", "metrics.csv", "notes.tmp-x", ".tmp-5", "a.tmp-"}) {
    EXPECT_TRUE(std::ifstream(dir + "/" + kept)) << kept;
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
