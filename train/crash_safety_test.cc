// Crash safety: the //train binary killed with SIGKILL at 26 moments of a
// run (in the middle of a round, at every step of writing a checkpoint and
// of appending to metrics.csv, while a resumed run rewrites metrics.csv or
// writes its own checkpoint) always resumes with `continue = 1` to the
// weights, updater state and metrics.csv rows of a run never interrupted,
// bit for bit. File moments come from kill_at_preload (LD_PRELOAD), the
// others from a timer.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "train/net/checkpoint.h"
#include "train/trainer_test_util.h"

extern char** environ;

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::MetricRowsWithoutTimings;
using testing::NewTestDir;
using testing::ReadText;
using testing::WithLayers;
using testing::WriteBlobsCsv;
using testing::WriteText;

constexpr int kRounds = 4;

// A run's end: exited with `exit_code`, or killed by SIGKILL.
struct Ending {
  bool killed = false;
  int exit_code = -1;
};

// When a timer kills a run: `delay` after its output first shows `mark`.
struct Timer {
  std::string mark;
  std::chrono::steady_clock::duration delay{};
};

// Waits until the file at `path` holds `mark`, or process `pid` has ended;
// true in the first case.
bool AwaitOutput(const std::string& path, const std::string& mark, pid_t pid) {
  while (ReadText(path).find(mark) == std::string::npos) {
    siginfo_t ended{};
    if (waitid(P_PID, pid, &ended, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        ended.si_pid != 0) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Runs the trainer on dir/net.conf with `args` and the environment
// `extra_env` added, its output in dir/LOG; kills it with SIGKILL when
// `timer` says.
Ending RunTrainer(const std::string& dir, const std::vector<std::string>& args,
                  const std::vector<std::string>& extra_env,
                  const std::string& log, const Timer* timer = nullptr) {
  std::vector<std::string> argv_text = {std::getenv("UMBRA_TRAINER"),
                                        dir + "/net.conf"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = extra_env;
  for (char** var = environ; *var != nullptr; ++var) env_text.push_back(*var);
  std::vector<char*> env;
  for (std::string& var : env_text) env.push_back(var.data());
  env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log_path = dir + "/" + log;
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  Ending ending;
  if (spawned != 0) return ending;
  if (timer != nullptr && AwaitOutput(log_path, timer->mark, pid)) {
    std::this_thread::sleep_for(timer->delay);
    kill(pid, SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ending.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  if (WIFEXITED(status)) ending.exit_code = WEXITSTATUS(status);
  return ending;
}

// What a finished run leaves that a resumed one must reproduce: the last
// checkpoint's weights, layer states and updater state (bytes), its update
// count, and metrics.csv without its timing columns.
struct Outcome {
  std::map<std::string, std::string> tensors;
  long num_update = -1;
  std::vector<std::string> metric_rows;
};

Outcome OutcomeOf(const std::string& dir) {
  Outcome outcome;
  const Checkpoint checkpoint =
      ReadCheckpoint(CheckpointPath(dir + "/models", kRounds));
  for (const TensorProto& tensor : checkpoint.weights()) {
    outcome.tensors["weight " + tensor.name()] = tensor.data();
  }
  for (const TensorProto& tensor : checkpoint.states()) {
    outcome.tensors["state " + tensor.name()] = tensor.data();
  }
  for (const TensorProto& tensor : checkpoint.updater().tensors()) {
    outcome.tensors["updater " + tensor.name()] = tensor.data();
  }
  outcome.num_update = checkpoint.num_update();
  outcome.metric_rows = MetricRowsWithoutTimings(dir + "/models/metrics.csv");
  return outcome;
}

// A moment to kill at: UMBRA_KILL_AT's value for the first run (and for
// the first resume when `resume_kill_at` is set), or, without one, a third
// of the way into the round after `after_round`.
struct Moment {
  std::string kill_at;
  std::string resume_kill_at;
  int after_round = 0;
};

std::string Describe(const Moment& moment) {
  if (!moment.kill_at.empty()) {
    return moment.resume_kill_at.empty()
               ? moment.kill_at
               : absl::StrCat(moment.kill_at, ", then ", moment.resume_kill_at);
  }
  return absl::StrCat("a third into round ", moment.after_round + 1);
}

std::vector<Moment> Moments() {
  std::vector<Moment> moments;
  // Every step of writing a checkpoint: the first, a middle and the last.
  for (const char* file : {"0001.model.tmp-", "0003.model.tmp-"}) {
    for (const char* call :
         {"open", "write", "write-half", "fsync", "rename", "rename-after"}) {
      moments.push_back({absl::StrCat(call, ":", file, ":1"), ""});
    }
  }
  moments.push_back({"write-half:0004.model.tmp-:1", ""});
  moments.push_back({"rename-after:0004.model.tmp-:1", ""});
  // Appending round 1's row (with the header) and round 3's.
  for (const char* append :
       {"write:metrics.csv:1", "write-half:metrics.csv:1",
        "write:metrics.csv:3", "write-half:metrics.csv:3"}) {
    moments.push_back({append, ""});
  }
  // Killed after round 3's row, before its checkpoint: the resume drops the
  // row by rewriting metrics.csv, and is killed at each step of that, or
  // while writing its own first checkpoint.
  for (const char* rewrite :
       {"write-half:metrics.csv.tmp-:1", "fsync:metrics.csv.tmp-:1",
        "rename:metrics.csv.tmp-:1", "rename-after:metrics.csv.tmp-:1",
        "write-half:0003.model.tmp-:1"}) {
    moments.push_back({"open:0003.model.tmp-:1", rewrite});
  }
  // Inside rounds 2, 3 and 4.
  for (int round = 1; round < kRounds; ++round) {
    moments.push_back({"", "", round});
  }
  return moments;
}

// Rounds long enough (a tenth of a second or so) for a timer to land
// inside them.
std::string Config(const std::string& dir) {
  std::string config = WithLayers(BlobsConfig(dir), R"(layer[in->h] = fullc:fc1
  nhidden = 128
layer[h->h] = relu
layer[h->d] = dropout
  threshold = 0.2
layer[d->h2] = fullc:fc2
  nhidden = 128
layer[h2->h2] = relu
layer[h2->out] = fullc:fc3
  nhidden = 3
layer[out->out] = softmax
)");
  WriteBlobsCsv(dir + "/train.csv", 6000, 1);
  return config + absl::StrCat("num_round = ", kRounds,
                               "\nsave_model = 1\nnthread = 1\n");
}

// The environment that kills the trainer at `kill_at`.
std::vector<std::string> KillEnv(const std::string& kill_at) {
  return {"UMBRA_KILL_AT=" + kill_at,
          absl::StrCat("LD_PRELOAD=", std::getenv("UMBRA_KILL_AT_PRELOAD")),
          // Under --config=asan the sanitizer's runtime is not first.
          "ASAN_OPTIONS=verify_asan_link_order=0"};
}

// Kills a run at `moment` in a new directory, resumes it to its end, and
// expects `expected`. `round_time` is the uninterrupted run's per round.
void KillAndResume(const Moment& moment, int index,
                   std::chrono::steady_clock::duration round_time,
                   const Outcome& expected) {
  const std::string dir = NewTestDir(absl::StrCat("killed_", index));
  WriteText(dir + "/net.conf", Config(dir));
  if (moment.kill_at.empty()) {
    const Timer timer{absl::StrCat("[", moment.after_round, "]"),
                      round_time / 3};
    ASSERT_TRUE(RunTrainer(dir, {}, {}, "killed.log", &timer).killed)
        << ReadText(dir + "/killed.log");
    // Inside the next round, or still writing the checkpoint before it.
    const std::optional<std::string> newest = NewestCheckpoint(dir + "/models");
    EXPECT_TRUE(newest == CheckpointPath(dir + "/models", moment.after_round) ||
                newest ==
                    CheckpointPath(dir + "/models", moment.after_round - 1))
        << "killed after " << newest.value_or("no checkpoint");
  } else {
    ASSERT_TRUE(
        RunTrainer(dir, {}, KillEnv(moment.kill_at), "killed.log").killed)
        << "the kill point was never reached:\n"
        << ReadText(dir + "/killed.log");
  }
  if (!moment.resume_kill_at.empty()) {
    ASSERT_TRUE(RunTrainer(dir, {"continue=1"}, KillEnv(moment.resume_kill_at),
                           "resume1.log")
                    .killed)
        << "the resume's kill point was never reached:\n"
        << ReadText(dir + "/resume1.log");
  }
  const Ending resumed = RunTrainer(dir, {"continue=1"}, {}, "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << ReadText(dir + "/resume.log");
  const Outcome got = OutcomeOf(dir);
  EXPECT_EQ(got.num_update, expected.num_update);
  EXPECT_EQ(got.metric_rows, expected.metric_rows);
  ASSERT_EQ(got.tensors.size(), expected.tensors.size());
  for (const auto& [name, bytes] : expected.tensors) {
    EXPECT_TRUE(got.tensors.count(name) == 1 && got.tensors.at(name) == bytes)
        << name << " differs from the uninterrupted run's";
  }
}

TEST(CrashSafetyTest, EveryKillResumesToTheUninterruptedRun) {
  const std::string reference = NewTestDir("uninterrupted");
  WriteText(reference + "/net.conf", Config(reference));
  const auto start = std::chrono::steady_clock::now();
  const Ending whole = RunTrainer(reference, {}, {}, "run.log");
  const auto round_time = (std::chrono::steady_clock::now() - start) / kRounds;
  ASSERT_EQ(whole.exit_code, 0) << ReadText(reference + "/run.log");
  const Outcome expected = OutcomeOf(reference);
  ASSERT_EQ(expected.metric_rows.size(), kRounds + 1u);

  const std::vector<Moment> moments = Moments();
  ASSERT_GE(moments.size(), 20u);
  for (size_t i = 0; i < moments.size(); ++i) {
    SCOPED_TRACE(Describe(moments[i]));
    KillAndResume(moments[i], i, round_time, expected);
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
