// Test helpers for the trainer: a separable synthetic data set written as
// CSV, a small config that trains on it, and a run of the Trainer that
// returns what it printed (scratch directories and files come from
// train/config/config_test_util.h, included here).
//
// Example:
//
//   const std::string dir = NewTestDir("resume");
//   WriteBlobsCsv(dir + "/train.csv", 300, /*seed=*/1);
//   std::string out = RunTrainer(BlobsConfig(dir), {"num_round=2"});
#ifndef UMBRA_TRAIN_TRAINER_TEST_UTIL_H_
#define UMBRA_TRAIN_TRAINER_TEST_UTIL_H_

#include <map>
#include <string>
#include <vector>

#include "train/config/config_test_util.h"
#include "train/dist/communicator.h"

namespace umbra {
namespace train {
namespace testing {

// `rows` instances of 3 well-separated Gaussian blobs in 8 dimensions as
// CSV: label, then 8 values.
void WriteBlobsCsv(const std::string& path, int rows, unsigned seed);

// A config that trains a 8-16-3 MLP with dropout on dir/train.csv
// (shuffled), evaluates on dir/test.csv, saves to dir/models; writes both
// CSV files.
std::string BlobsConfig(const std::string& dir);

// `config` (a BlobsConfig) with the layers of its netconfig block replaced by
// `layers` (layer lines and their keys, reading node `in`).
std::string WithLayers(std::string config, const std::string& layers);

// Writes `config_text` to a file in its directory and runs the Trainer on it
// with `overrides`, as one of `ranks` when given (Trainer's constructor);
// returns what it printed. Exceptions propagate.
std::string RunTrainer(const std::string& dir, const std::string& config_text,
                       const std::vector<std::string>& overrides,
                       dist::Communicator* ranks = nullptr);

// The last "[N]..." line of `output`'s value of `label` (e.g.
// "test-error"), or NaN when no line has it, so that any comparison with
// it fails.
double LastMetric(const std::string& output, const std::string& label);

// The rows of the metrics.csv at `path`, header first, without its timing
// columns (elapsed_s, images_per_s), which differ from run to run.
std::vector<std::string> MetricRowsWithoutTimings(const std::string& path);

// Every weight of checkpoint `path`, by name.
std::map<std::string, std::vector<float>> CheckpointWeights(
    const std::string& path);

// Expects every weight of `got` within 1e-5 relative of `want`'s, relative
// to the net's largest weight: a weight whose gradient is zero in exact
// arithmetic (a conv bias before batch_norm) holds only rounding noise,
// which sums in another order (on another number of ranks, or over
// accumulated batches).
void ExpectSameWeights(const std::string& want, const std::string& got);

}  // namespace testing
}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_TRAINER_TEST_UTIL_H_
