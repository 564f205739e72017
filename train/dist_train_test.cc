// Data-parallel training through mpirun: the //train binary on 1, 2 and 3
// ranks of this machine (over shared memory, and over TCP as between
// machines) trains the same weights as one process on the same global
// batch; a killed rank ends the job, and the run resumes from its last
// checkpoint, with the same or another number of ranks, to the weights of
// an uninterrupted run; bad set-ups stop with clear errors.
//
// mpirun runs as root and oversubscribes the cores here, as CI does (the
// test sets what Open MPI needs for that; a user does not).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
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

// Runs `command` through the shell; its stdout and stderr together.
Job Shell(const std::string& command) {
  Job job;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
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
  }

  // Writes `config` as dir/net.conf and trains it: on `ranks` ranks of
  // mpirun with dist = mpi, or, with ranks = 0, as one process without
  // mpirun (dist = none).
  Job Train(const std::string& dir, const std::string& config, int ranks,
            const std::vector<std::string>& args,
            const std::string& mca = "") {
    WriteText(dir + "/net.conf", config);
    const std::string command = ranks == 0 ? Trainer() : Mpirun(ranks, mca);
    return Shell(absl::StrCat(command, " ", dir, "/net.conf ",
                              ranks == 0 ? "" : "dist=mpi ",
                              absl::StrJoin(args, " ")));
  }
};

// Every weight of checkpoint `path`, by name.
std::map<std::string, std::vector<float>> Weights(const std::string& path) {
  const Checkpoint checkpoint = ReadCheckpoint(path);
  std::map<std::string, std::vector<float>> weights;
  for (const TensorProto& proto : checkpoint.weights()) {
    std::vector<float>& values = weights[proto.name()];
    values.resize(proto.data().size() / sizeof(float));
    ReadTensorProto(proto, values.data(), values.size(), proto.name());
  }
  return weights;
}

// Expects every weight of `got` within 1e-5 relative of `want`'s, relative
// to the net's largest weight: a weight whose gradient is zero in exact
// arithmetic (a conv bias before batch_norm) holds only rounding noise,
// which sums in another order on another number of ranks.
void ExpectSameWeights(const std::string& want, const std::string& got) {
  const auto expected = Weights(want);
  const auto actual = Weights(got);
  ASSERT_EQ(expected.size(), actual.size()) << want << " vs " << got;
  float scale = 0;
  for (const auto& [name, values] : expected) {
    for (float v : values) scale = std::max(scale, std::fabs(v));
  }
  for (const auto& [name, values] : expected) {
    ASSERT_EQ(actual.count(name), 1u) << name;
    const std::vector<float>& other = actual.at(name);
    ASSERT_EQ(values.size(), other.size()) << name;
    for (size_t i = 0; i < values.size(); ++i) {
      if (std::fabs(values[i] - other[i]) > 1e-5 * scale) {
        ADD_FAILURE() << name << "[" << i << "] is " << other[i] << " in "
                      << got << ", " << values[i] << " in " << want
                      << " (tolerance " << 1e-5 * scale << ")";
        break;
      }
    }
  }
}

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
       {std::pair<std::string, std::string (*)(const std::string&)>{
            "mlp", MlpConfig},
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
        EXPECT_TRUE(absl::StrContains(job.output,
                                      absl::StrCat("ranks:", ranks, "\t")))
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

}  // namespace
}  // namespace train
}  // namespace umbra
