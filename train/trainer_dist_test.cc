// The trainer as one rank of a data-parallel run, with the other ranks
// played by a fake Communicator: a rank other than 0 prints and writes
// nothing, dist_check names the first weight that differs between ranks,
// and a task of one process is refused. (Real ranks: dist_train_test.)
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/dist/communicator.h"
#include "train/trainer.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::NewTestDir;
using testing::RunTrainer;

// Rank `rank` of two, whose other rank holds the same values as this one:
// sums double. Rank 0 records what it broadcasts in `broadcasts`, and rank
// 1 receives it from there, so that a rank 1 run after a rank 0 run sees
// what the two would exchange. From call `dissent_from` on, AllGather
// reports the other rank's value as different.
class FakeRanks : public dist::Communicator {
 public:
  FakeRanks(int rank, int dissent_from,
            std::vector<std::string>* broadcasts = nullptr)
      : rank_(rank), dissent_from_(dissent_from), broadcasts_(broadcasts) {}

  int rank() const override { return rank_; }
  int size() const override { return 2; }
  int local_rank() const override { return rank_; }
  int local_size() const override { return 2; }
  void Broadcast(std::string* bytes, int root) override {
    if (broadcasts_ == nullptr) return;
    if (rank_ == root) {
      broadcasts_->push_back(*bytes);
    } else {
      ASSERT_FALSE(broadcasts_->empty()) << "rank 0 sent nothing more";
      *bytes = broadcasts_->front();
      broadcasts_->erase(broadcasts_->begin());
    }
  }
  void SumInPlace(double* values, size_t count) override {
    for (size_t i = 0; i < count; ++i) values[i] *= 2;
  }
  void SumInPlace(float* values, size_t count) override {
    for (size_t i = 0; i < count; ++i) values[i] *= 2;
  }
  std::vector<uint64_t> AllGather(uint64_t value) override {
    const bool dissent = ++gathers_ >= dissent_from_;
    std::vector<uint64_t> all = {value, dissent ? value + 1 : value};
    if (rank_ == 1) std::swap(all[0], all[1]);
    return all;
  }
  std::unique_ptr<dist::AsyncAllreduce> NewAllreduce() override {
    return std::make_unique<Doubling>();
  }
  [[noreturn]] void Abort(int code) override { std::abort(); }

 private:
  class Doubling : public dist::AsyncAllreduce {
   public:
    void Start(float* values, size_t count) override {
      for (size_t i = 0; i < count; ++i) values[i] *= 2;
    }
    void Progress() override {}
    void WaitAll() override {}
  };

  int rank_;
  int dissent_from_;
  std::vector<std::string>* broadcasts_;
  int gathers_ = 0;
};

constexpr int kNever = 1 << 30;

TEST(TrainerDistTest, OnlyRankZeroPrintsAndWrites) {
  std::vector<std::string> broadcasts;
  const std::string dir0 = NewTestDir("rank0");
  FakeRanks rank0(/*rank=*/0, kNever, &broadcasts);
  const std::string out =
      RunTrainer(dir0, BlobsConfig(dir0), {"num_round=1", "silent=0"}, &rank0);
  EXPECT_TRUE(absl::StrContains(out, "[1]\telapsed:")) << out;
  EXPECT_TRUE(absl::StrContains(out, "\tranks:2\tcomm_wait:")) << out;
  EXPECT_TRUE(std::ifstream(dir0 + "/models/metrics.csv"));
  EXPECT_TRUE(std::ifstream(dir0 + "/models/0001.model"));

  const std::string dir1 = NewTestDir("rank1");
  FakeRanks rank1(/*rank=*/1, kNever, &broadcasts);
  EXPECT_EQ(
      RunTrainer(dir1, BlobsConfig(dir1), {"num_round=1", "silent=0"}, &rank1),
      "");
  EXPECT_TRUE(broadcasts.empty()) << "rank 1 took fewer broadcasts";
  EXPECT_FALSE(std::ifstream(dir1 + "/models/metrics.csv"));
  EXPECT_FALSE(std::ifstream(dir1 + "/models/0001.model"));
}

TEST(TrainerDistTest, DistCheckNamesTheFirstWeightThatDiffers) {
  const std::string dir = NewTestDir("dist_check");
  // The first AllGather compares the configs; the ones after it, weights.
  FakeRanks ranks(/*rank=*/0, /*dissent_from=*/2);
  try {
    RunTrainer(dir, BlobsConfig(dir), {"num_round=2", "dist_check=1"}, &ranks);
    ADD_FAILURE() << "expected a TrainingError";
  } catch (const TrainingError& e) {
    EXPECT_TRUE(absl::StrContains(
        e.what(),
        "dist_check: after round 1 weight 'fc1.wmat' of rank 1 "
        "differs from rank 0's"))
        << e.what();
  }
  // Without dist_check the same run goes on.
  const std::string unchecked = NewTestDir("unchecked");
  FakeRanks quiet(/*rank=*/0, /*dissent_from=*/2);
  EXPECT_NO_THROW(
      RunTrainer(unchecked, BlobsConfig(unchecked), {"num_round=1"}, &quiet));
}

TEST(TrainerDistTest, RefusesTasksOfOneProcess) {
  const std::string dir = NewTestDir("pred");
  FakeRanks ranks(/*rank=*/0, kNever);
  const std::string config = BlobsConfig(dir) + "pred = \"" + dir +
                             "/pred.txt\"\n"
                             "iter = csv\n  filename = \"" +
                             dir + "/test.csv\"\niter = end\n";
  try {
    RunTrainer(dir, config, {"task=pred"}, &ranks);
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(absl::StrContains(
        e.what(),
        "task = pred writes one file from one process; run it "
        "without mpirun (dist = none)"))
        << e.what();
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
