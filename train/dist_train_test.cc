// Data-parallel training through mpirun: the //train binary on 1, 2 and 3
// ranks of this machine (over shared memory, and over TCP as between
// machines) trains the same weights as one process on the same global
// batch; a killed rank ends the job, and the run resumes from its last
// checkpoint, with the same or another number of ranks, to the weights of
// an uninterrupted run; bad set-ups stop with clear errors.
//
// mpirun runs as root and oversubscribes the cores here, as CI does (the
// test sets what Open MPI needs for that; a user does not).
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "train/net/checkpoint.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::ExpectSameWeights;
using testing::LastMetric;
using testing::NewTestDir;
using testing::ReadText;
using testing::WithLayers;
using testing::WriteBlobsCsv;
using testing::WriteText;

struct Job {
  int status = -1;  // the exit status; -1 when it did not exit
  std::string output;
};

// Starts `command` through the shell, its stderr joined to its stdout.
FILE* Start(const std::string& command) {
  return popen((command + " 2>&1").c_str(), "r");
}

// What the command `Start` returned printed, and its status once it ended.
Job Finish(FILE* pipe) {
  Job job;
  if (pipe == nullptr) return job;
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    job.output.append(buffer, got);
  }
  const int status = pclose(pipe);
  if (WIFEXITED(status)) job.status = WEXITSTATUS(status);
  return job;
}

// Runs `command` through the shell; its stdout and stderr together.
Job Shell(const std::string& command) { return Finish(Start(command)); }

// The trainer binary (the test's data).
std::string Trainer() { return std::getenv("UMBRA_TRAINER"); }

// "mpirun -np N ... trainer" with what running as root on an
// oversubscribed machine needs.
std::string Mpirun(int ranks, const std::string& mca = "") {
  return absl::StrCat("mpirun -np ", ranks, " --oversubscribe --bind-to none ",
                      mca, " ", Trainer());
}

class DistTrainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    // Open MPI's session files: under the test's own directory.
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("TMPDIR", tmp != nullptr ? tmp : "/tmp", 1);
    // Under --config=asan: Open MPI's components leak at MPI_Finalize, from
    // libraries it has unloaded by then, which no suppression can name. The
    // trainer's own leaks are checked by its tests without MPI.
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  }

  // Writes `config` as dir/net.conf and trains it: on `ranks` ranks of
  // mpirun with dist = mpi, or, with ranks = 0, as one process without
  // mpirun (dist = none).
  Job Train(const std::string& dir, const std::string& config, int ranks,
            const std::vector<std::string>& args, const std::string& mca = "") {
    WriteText(dir + "/net.conf", config);
    const std::string command = ranks == 0 ? Trainer() : Mpirun(ranks, mca);
    return Shell(absl::StrCat(command, " ", dir, "/net.conf ",
                              ranks == 0 ? "" : "dist=mpi ",
                              absl::StrJoin(args, " ")));
  }
};

// The blobs MLP (with dropout) at a global batch of 12: the 90 test rows
// end in a padded batch, which every rank count splits differently.
std::string MlpConfig(const std::string& dir) {
  return BlobsConfig(dir) + "batch_size = 12\nnum_round = 2\ndist_check = 1\n";
}

// A small conv net with batch_norm whose statistics are those of the
// global batch (sync_bn) on the blobs as 2x2x2 images.
std::string ConvConfig(const std::string& dir) {
  return WithLayers(MlpConfig(dir), R"(layer[in->c] = conv:conv1
  kernel_size = 2
  pad = 1
  nchannel = 4
layer[c->c] = batch_norm
  sync_bn = 1
layer[c->c] = relu
layer[c->p] = max_pooling
  kernel_size = 2
  stride = 1
layer[p->f] = flatten
layer[f->d] = dropout
  threshold = 0.3
layer[d->out] = fullc:fc
  nhidden = 3
layer[out->out] = softmax
)") + "input_shape = 2,2,2\n";
}

TEST_F(DistTrainTest, AnyNumberOfRanksTrainsTheWeightsOfOneProcess) {
  for (const auto& [net, config] :
       {std::pair<std::string, std::string (*)(const std::string&)>{"mlp",
                                                                    MlpConfig},
        {"conv", ConvConfig}}) {
    std::map<int, std::string> outputs;
    const std::string one = NewTestDir(net + "_one_process");
    for (int ranks : {0, 2, 3}) {
      const std::string dir =
          ranks == 0 ? one : NewTestDir(absl::StrCat(net, "_", ranks));
      const Job job = Train(dir, config(dir), ranks, {});
      ASSERT_EQ(job.status, 0) << net << " on " << ranks << " ranks:\n"
                               << job.output;
      if (ranks > 0) {
        EXPECT_TRUE(
            absl::StrContains(job.output, absl::StrCat("ranks:", ranks, "\t")))
            << job.output;
        ExpectSameWeights(one + "/models/0002.model",
                          dir + "/models/0002.model");
      }
      outputs[ranks] = job.output;
    }
    // Every eval row counted once, whatever the split of the padded batch.
    EXPECT_EQ(LastMetric(outputs[2], "test-error"),
              LastMetric(outputs[0], "test-error"))
        << outputs[0] << outputs[2];
    EXPECT_NEAR(LastMetric(outputs[3], "test-logloss"),
                LastMetric(outputs[0], "test-logloss"), 1e-4)
        << outputs[0] << outputs[3];
  }
}

// update_period on two ranks: each rank adds up its batches' gradients and
// the ranks sum once per update (and once for a round's leftover batches:
// 25 batches a round), so the weights are one process's.
TEST_F(DistTrainTest, UpdatePeriodSumsOverTheRanksOncePerUpdate) {
  const std::string one = NewTestDir("period_one_process");
  const std::string two = NewTestDir("period_2");
  ASSERT_EQ(Train(one, MlpConfig(one), 0, {"update_period=2"}).status, 0);
  const Job job = Train(two, MlpConfig(two), 2, {"update_period=2"});
  ASSERT_EQ(job.status, 0) << job.output;
  ExpectSameWeights(one + "/models/0002.model", two + "/models/0002.model");
}

TEST_F(DistTrainTest, OverTcpAsBetweenMachines) {
  const std::string one = NewTestDir("tcp_one_process");
  const std::string two = NewTestDir("tcp_2");
  ASSERT_EQ(Train(one, MlpConfig(one), 0, {}).status, 0);
  const Job job = Train(two, MlpConfig(two), 2, {}, "--mca btl tcp,self");
  ASSERT_EQ(job.status, 0) << job.output;
  ExpectSameWeights(one + "/models/0002.model", two + "/models/0002.model");
}

TEST_F(DistTrainTest, EvalOnTwoRanksCountsEveryRowOnce) {
  const std::string dir = NewTestDir("eval");
  ASSERT_EQ(Train(dir, MlpConfig(dir), 0, {}).status, 0);
  const Job one = Train(dir, MlpConfig(dir), 0, {"task=eval"});
  const Job two = Train(dir, MlpConfig(dir), 2, {"task=eval"});
  ASSERT_EQ(one.status, 0) << one.output;
  ASSERT_EQ(two.status, 0) << two.output;
  // The error counts are exact; the loss sums may round apart.
  ASSERT_TRUE(absl::StrContains(two.output, "[eval]")) << two.output;
  EXPECT_EQ(LastMetric(two.output, "test-error"),
            LastMetric(one.output, "test-error"))
      << one.output << two.output;
  EXPECT_NEAR(LastMetric(two.output, "test-logloss"),
              LastMetric(one.output, "test-logloss"), 1e-5)
      << one.output << two.output;
}

TEST_F(DistTrainTest, RefusesABatchTheRanksDoNotDivide) {
  const std::string dir = NewTestDir("indivisible");
  const Job job = Train(dir, MlpConfig(dir), 2, {"batch_size=9"});
  EXPECT_NE(job.status, 0);
  EXPECT_TRUE(absl::StrContains(job.output,
                                "9 is the global batch, split over 2 ranks"))
      << job.output;
}

TEST_F(DistTrainTest, RefusesMpirunWithoutDist) {
  const std::string dir = NewTestDir("no_dist");
  WriteText(dir + "/net.conf", MlpConfig(dir));
  const Job job = Shell(Mpirun(2) + " " + dir + "/net.conf");
  EXPECT_NE(job.status, 0);
  EXPECT_TRUE(absl::StrContains(job.output,
                                "mpirun started 2 processes but dist = none"))
      << job.output;
}

TEST_F(DistTrainTest, RefusesRanksWithDifferentConfigs) {
  const std::string dir = NewTestDir("differ");
  WriteText(dir + "/net.conf", MlpConfig(dir));
  const std::string run =
      absl::StrCat(Trainer(), " ", dir, "/net.conf dist=mpi");
  const Job job =
      Shell(absl::StrCat("mpirun --oversubscribe --bind-to none -np 1 ", run,
                         " : -np 1 ", run, " seed=4"));
  EXPECT_NE(job.status, 0);
  // Each rank that fails says which it is (the first to fail may end the
  // other before it prints).
  EXPECT_TRUE(absl::StrContains(job.output, "error: rank ")) << job.output;
  EXPECT_TRUE(absl::StrContains(
      job.output,
      ": command line: argument 2: rank 1 runs another config "
      "than rank 0"))
      << job.output;
}

// The pid of the process that is rank `rank` of a trainer job on
// `config_path`, or 0.
pid_t FindRank(const std::string& config_path, int rank) {
  const std::string want = absl::StrCat("OMPI_COMM_WORLD_RANK=", rank);
  DIR* proc = opendir("/proc");
  pid_t found = 0;
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    const std::string dir = absl::StrCat("/proc/", pid);
    const std::string cmdline = ReadText(dir + "/cmdline");
    if (!absl::StrContains(cmdline, config_path)) continue;
    const std::string environ = ReadText(dir + "/environ");
    if (absl::StrContains(environ, want + std::string(1, '\0'))) found = pid;
  }
  closedir(proc);
  return found;
}

// A job of 2 ranks whose rank 1 is killed (SIGKILL) once round 2's
// checkpoint is written ends, non-zero, within 30 s; resuming from its
// newest checkpoint, on 2 ranks or on 1, trains the weights of an
// uninterrupted run.
TEST_F(DistTrainTest, AKilledRankEndsTheJobAndTheRunResumes) {
  // Rounds long enough (a second or so) to kill the job inside one.
  const auto config = [](const std::string& dir) {
    std::string text = WithLayers(MlpConfig(dir), R"(layer[in->h] = fullc:fc1
  nhidden = 512
layer[h->h] = relu
layer[h->d] = dropout
  threshold = 0.2
layer[d->out] = fullc:fc2
  nhidden = 3
layer[out->out] = softmax
)");
    WriteBlobsCsv(dir + "/train.csv", 12000, 1);
    return text;
  };
  const std::vector<std::string> args = {"num_round=10", "save_model=1"};
  const std::string whole = NewTestDir("uninterrupted");
  const Job uninterrupted = Train(whole, config(whole), 2, args);
  ASSERT_EQ(uninterrupted.status, 0) << uninterrupted.output;

  for (int resume_ranks : {2, 1}) {
    const std::string dir = NewTestDir(absl::StrCat("killed_", resume_ranks));
    WriteText(dir + "/net.conf", config(dir));
    const std::string command = absl::StrCat(
        Mpirun(2), " ", dir, "/net.conf dist=mpi ", absl::StrJoin(args, " "));
    FILE* pipe = Start(command);
    ASSERT_NE(pipe, nullptr);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::ifstream(dir + "/models/0002.model") &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const pid_t rank1 = FindRank(dir + "/net.conf", 1);
    ASSERT_GT(rank1, 0) << "no rank 1 to kill";
    ASSERT_EQ(kill(rank1, SIGKILL), 0);
    const auto killed = std::chrono::steady_clock::now();
    const Job job = Finish(pipe);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - killed)
            .count();
    EXPECT_LT(seconds, 30.0) << job.output;
    EXPECT_GT(job.status, 0) << job.output;  // exited, and not with 0
    EXPECT_FALSE(std::ifstream(dir + "/models/0010.model")) << job.output;

    const Job resumed = Train(dir, config(dir), resume_ranks,
                              {"num_round=10", "save_model=1", "continue=1"});
    ASSERT_EQ(resumed.status, 0) << resumed.output;
    // From the newest checkpoint: round 2's, or a later one written before
    // the job ended; never round 1 again.
    EXPECT_FALSE(absl::StrContains(resumed.output, "[1]\t")) << resumed.output;
    EXPECT_TRUE(absl::StrContains(resumed.output, "[10]\t")) << resumed.output;
    ExpectSameWeights(whole + "/models/0010.model", dir + "/models/0010.model");
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
