// What `inspect` prints about a checkpoint file (train/checkpoint.proto):
// format version, checksum (verified), round, updater, config, metrics, and
// every tensor's name, shape, dtype and summary statistics; and one tensor
// as CSV.
//
// Example:
//
//   std::cout << DescribeCheckpoint("models/mlp/0010.model");
//   std::cout << TensorCsv(ReadCheckpointOrThrow(path), "fc1.wmat");
//
// Contracts: the file is read with train::ReadCheckpoint, so every error
// (missing file, not a checkpoint, other format version, truncated,
// checksum mismatch) is the trainer's CheckpointError. Statistics are
// computed in double; norm is the L2 norm.
#ifndef UMBRA_TOOLS_CHECKPOINT_REPORT_H_
#define UMBRA_TOOLS_CHECKPOINT_REPORT_H_

#include <string>
#include <vector>

#include "train/net/checkpoint.h"

namespace umbra {
namespace tools {

struct TensorStats {
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double norm = 0.0;
};

TensorStats ComputeStats(const std::vector<float>& values);

// The tensor's values; throws CheckpointError for a bad dtype or size.
std::vector<float> TensorValues(const train::TensorProto& tensor);

// The whole report of the checkpoint at `path`.
std::string DescribeCheckpoint(const std::string& path);

// Tensor `name` (a weight, an updater state tensor or a layer state) as
// CSV: one row per index of the first dimension, the rest flattened into
// the columns; a 1-D tensor is one value per row. Throws CheckpointError
// naming the closest name and listing them all when there is none.
std::string TensorCsv(const train::Checkpoint& checkpoint,
                      const std::string& name);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CHECKPOINT_REPORT_H_
