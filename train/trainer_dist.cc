// The trainer's side of data-parallel training (dist = mpi, trainer.h):
// what keeps the ranks of a run in step. With one rank every function here
// returns at once or does what a single process does.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"

namespace umbra {
namespace train {

namespace {

// The first rank whose value differs from rank 0's; 0 when all agree.
int FirstDissenter(const std::vector<uint64_t>& values) {
  for (size_t rank = 1; rank < values.size(); ++rank) {
    if (values[rank] != values[0]) return static_cast<int>(rank);
  }
  return 0;
}

}  // namespace

void Trainer::CheckRanksAgree() const {
  if (ranks_.size() == 1) return;
  const TrainerParam& param = checked_.param;
  if (param.task == kTaskPred || param.task == kTaskExtract ||
      param.task == kTaskExport || param.task == kTaskGetWeight) {
    throw GlobalError(checked_.config, "task",
                      absl::StrCat("task = ", TaskName(param.task),
                                   " writes one file from one process; run it "
                                   "without mpirun (dist = none)"));
  }
  std::string config = inputs_.config_text;
  for (const std::string& arg : inputs_.overrides) {
    absl::StrAppend(&config, "\n", arg);
  }
  const int other = FirstDissenter(ranks_.AllGather(Fnv1a64(config)));
  if (other != 0) {
    throw GlobalError(
        checked_.config, "dist",
        absl::StrCat("rank ", other,
                     " runs another config than rank 0 (its config file or "
                     "its key=value arguments differ); every rank of a "
                     "dist = mpi job must run the same config"));
  }
}

BatchPart Trainer::RankPart() const { return {ranks_.rank(), ranks_.size()}; }

std::optional<std::string> Trainer::SharedNewestCheckpoint() const {
  std::optional<std::string> newest;
  if (ranks_.rank() == 0) newest = NewestCheckpoint(ModelDir());
  if (ranks_.size() == 1) return newest;
  std::string path = newest.value_or("");
  ranks_.Broadcast(&path, 0);
  if (path.empty()) return std::nullopt;
  return path;
}

Checkpoint Trainer::ReadSharedCheckpoint(const std::string& path) const {
  Checkpoint checkpoint = ReadCheckpointOnRanks(path);
  // One check for every task that uses saved weights.
  const std::string bad = FirstNonFiniteTensor(checkpoint);
  if (!bad.empty()) {
    throw CheckpointError(absl::StrCat(
        "'", path, "' holds a NaN or an infinity in ", bad,
        ": a model that computes nothing (saved from a diverged run?); use "
        "an earlier checkpoint"));
  }
  return checkpoint;
}

Checkpoint Trainer::ReadCheckpointOnRanks(const std::string& path) const {
  if (ranks_.size() == 1) return ReadCheckpoint(path);
  std::string bytes;
  if (ranks_.rank() == 0 && !ReadCheckpoint(path).SerializeToString(&bytes)) {
    throw CheckpointError(
        absl::StrCat("cannot send checkpoint '", path, "' to the other ranks"));
  }
  ranks_.Broadcast(&bytes, 0);
  Checkpoint checkpoint;
  if (!checkpoint.ParseFromString(bytes)) {
    throw CheckpointError(absl::StrCat("rank ", ranks_.rank(), ": checkpoint '",
                                       path, "' from rank 0 does not parse"));
  }
  return checkpoint;
}

void Trainer::BroadcastModel() {
  if (ranks_.size() == 1) return;
  std::string bytes;
  if (ranks_.rank() == 0) {
    Checkpoint weights;
    model_->SaveTo(&weights);
    weights.SerializeToString(&bytes);
  }
  ranks_.Broadcast(&bytes, 0);
  if (ranks_.rank() == 0) return;
  Checkpoint weights;
  if (!weights.ParseFromString(bytes)) {
    throw TrainingError(absl::StrCat("rank ", ranks_.rank(),
                                     ": rank 0's weights do not parse"));
  }
  model_->LoadWeights(weights, "rank 0's weights");
}

void Trainer::SumOverRanks(metrics::MetricSet* set) {
  if (ranks_.size() == 1) return;
  std::vector<double> totals = set->Totals();
  ranks_.SumInPlace(totals.data(), totals.size());
  set->SetTotals(totals);
}

void Trainer::CheckWeightsAgree(int rounds_done) {
  if (ranks_.size() == 1 || !checked_.param.dist_check) return;
  Checkpoint state;
  model_->SaveTo(&state);
  // One collective for all the weights; one per weight only to name the
  // first that differs.
  std::vector<uint64_t> checksums;
  std::string all;
  for (const TensorProto& weight : state.weights()) {
    checksums.push_back(Fnv1a64(weight.data()));
    all.append(reinterpret_cast<const char*>(&checksums.back()),
               sizeof(uint64_t));
  }
  if (FirstDissenter(ranks_.AllGather(Fnv1a64(all))) == 0) return;
  for (int k = 0; k < state.weights_size(); ++k) {
    const std::vector<uint64_t> by_rank = ranks_.AllGather(checksums[k]);
    const int other = FirstDissenter(by_rank);
    if (other == 0) continue;
    throw TrainingError(absl::StrCat(
        "dist_check: after round ", rounds_done, " weight '",
        state.weights(k).name(), "' of rank ", other,
        " differs from rank 0's (checksums ", by_rank[other], " and ",
        by_rank[0], "): the ranks no longer train one model"));
  }
}

}  // namespace train
}  // namespace umbra
