// Trainer: runs one task of a config - train, finetune, pred, extract,
// eval or export (train/onnx) - with the net and its updater on the configured
// device (model.h), the data iterators (train/data), the metrics (train/optim)
// and checkpoints (net_checkpoint.h).
//
// Example:
//
//   TrainerInputs inputs;
//   inputs.config = LoadTrainConfig("mnist.conf", {"num_round=2"});
//   inputs.config_text = ...;  // saved in every checkpoint
//   Trainer trainer(std::move(inputs), std::cout);  // checks everything
//   trainer.Run();
//
// Training (task = train or finetune), round by round:
//   - one pass over the `data = train` iterator: forward, backward, one
//     update per batch; metrics on the training batches when eval_train;
//   - a pass over every `eval = NAME` iterator;
//   - one line on `out` ([round] elapsed, images/s, SET-METRIC:VALUE ...),
//     a row appended to model_dir/metrics.csv;
//   - every save_model rounds and after the last one, a checkpoint
//     model_dir/NNNN.model.
// `continue = 1` resumes from the newest checkpoint of model_dir (or from
// model_in): weights, updater state, counters, metrics so far, and the data
// order (the training iterator is made again and its completed passes
// skipped with DataIterator::SkipPass, since iterators keep their shuffle
// state private). A run never overwrites an earlier run's checkpoints or
// metrics in model_dir: it refuses to start instead. The layers'
// generator is reseeded from (seed, round) at the start of every round, so
// that resuming at a round boundary reproduces it. Training N rounds, or
// N/2 and N/2 more after a resume, gives bit-identical weights.
// A non-finite loss stops training with a TrainingError that names the
// first layer whose output went non-finite.
//
// `dev = gpu` / `gpu:N` (a --config=cuda build) trains the same way on that
// GPU: each batch is copied to it, the rows the metrics read are copied
// back, checkpoints go through the host and load on either device. The
// gpu's generator (cuRAND) draws the initial weights and dropout masks, so
// a gpu run starts from other weights than a cpu run of the same seed
// (start both from one model_in to compare them); bit-identical resumes
// are promised on the cpu.
//
// Data-parallel (`dist = mpi`, trainer_dist.cc): every rank of an mpirun
// job runs the same config with the same Communicator. Each rank reads its
// share of every batch (batch_size is the global batch), the model averages
// the gradients over the ranks, so every rank makes the same update and
// the weights stay identical (rank 0's are broadcast at the start;
// dist_check compares checksums every round; rank 0's layer states are
// broadcast after every training pass). Metrics are summed over the
// ranks; rank 0 alone prints, writes metrics.csv and checkpoints, and
// reads the checkpoints it resumes from (model_dir may be on its machine
// only). A checkpoint does not depend on the number of ranks.
#ifndef UMBRA_TRAIN_TRAINER_H_
#define UMBRA_TRAIN_TRAINER_H_

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "train/config/config.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_batch.h"
#include "train/dist/communicator.h"
#include "train/metrics/metric_set.h"
#include "train/model.h"
#include "train/model_dir_lock.h"
#include "train/net/checkpoint.h"
#include "train/net_setup.h"
#include "train/round_log.h"
#include "train/trainer_param.h"

namespace umbra {
namespace train {

// Training cannot go on (a non-finite loss, a net without a loss layer).
class TrainingError : public std::runtime_error {
 public:
  explicit TrainingError(const std::string& message)
      : std::runtime_error(message) {}
};

struct TrainerInputs {
  TrainConfig config;
  // The config file's text and the override arguments, for checkpoints.
  std::string config_text;
  std::vector<std::string> overrides;
};

class Trainer {
 public:
  // Checks every key of the config, reads the trainer's settings, sets up
  // the device, creates the iterators the task needs and builds the net.
  // Prints the net summary to `out` unless silent. With `ranks` (not owned;
  // dist = mpi) this process is rank ranks->rank() of a data-parallel run
  // and prints only as rank 0; without, it trains alone. Throws
  // ConfigError, DeviceError, CheckpointError, ...; nothing has run then.
  Trainer(TrainerInputs inputs, std::ostream& out,
          dist::Communicator* ranks = nullptr);
  ~Trainer();

  // Runs the task. Throws TrainingError, CheckpointError, DataError, ...
  void Run();

  const TrainerParam& param() const { return checked_.param; }

 private:
  struct EvalSet;

  void Train();
  // test_io = 1 (cxxnet's): num_round passes over the training data with
  // nothing trained, saved or evaluated; a round line with the speed each.
  void ReadDataOnly();
  void Predict();
  void EvaluateTask();
  // task = get_weight: the wmat of layer extract_layer_name, from the
  // checkpoint, to weight_filename and its .meta.
  void WriteWeight();
  // trainer_export.cc: task = export. PrepareExport checks onnx_path and
  // builds the net on the cpu for ExportInputShapes(); ExportModel loads
  // the model into it and writes the ONNX file.
  void PrepareExport();
  void ExportModel();
  // The net's input shapes for one instance each: input_shape (and
  // extra_data_shape[I]) when set, else those of the first data block
  // (pred, eval, train).
  std::vector<Shape<4>> ExportInputShapes() const;

  // Before any data is read: pred's output file does not exist yet, every
  // file the task's data blocks read opens (CheckIteratorFiles), and, when
  // the config sets the input shapes and the net is for one process's cpu,
  // the net and its updater build.
  void CheckBeforeData() const;
  // Loads weights (and for a resume everything else) before training;
  // returns the first round to train. continue = 1 resumes from model_dir's
  // newest checkpoint, else from model_in when given, else starts at round
  // 0 - unless model_dir holds metrics.csv rows that no rerun gives back.
  // A fresh run starts after round start_counter (cxxnet's).
  int PrepareTraining();
  // With continue = 1 and neither a checkpoint nor model_in to start from:
  // the ConfigError at `continue` when model_dir has a non-empty
  // metrics.csv, unless the run that wrote it was killed before its first
  // checkpoint (ReadLastRun), whose rounds this run trains again.
  void RefuseMetricsWithoutCheckpoint() const;
  // Makes model_dir (a ConfigError at its line when it cannot, or is a
  // file), takes its lock for the rest of the run (refusing when another
  // run holds it, or when the directory cannot be written), removes the
  // temporary files an interrupted run left, and refuses to train rounds
  // first_round+1 .. last_round over what an earlier run left there: a
  // fresh run (continue = 0, no checkpoint loaded) any checkpoint or a
  // non-empty metrics.csv, a resumed one a checkpoint of a round it will
  // train. A resumed run removes the metrics.csv rows of the rounds it
  // trains again.
  void PrepareModelDir(int first_round, int last_round);
  // One pass over the training data; returns the instances trained on.
  long TrainRound(int round);
  // The model's Forward on `batch`; an error about one of its rows (a bad
  // label) is rethrown as a TrainingError that says where() the batch is
  // from (formatted only then) and which instance of the data the row holds.
  void ForwardNaming(const DataBatch& batch, bool is_train,
                     absl::FunctionRef<std::string()> where);
  // Passes over every eval set, adding their results to `figures`.
  void EvaluateSets(RoundFigures* figures);

  // trainer_dist.cc: what keeps the ranks of a data-parallel run in step.
  // Refuses, at the key at fault, a run whose ranks differ in config or
  // that a task of one process (pred, extract) cannot split.
  void CheckRanksAgree() const;
  // The part of every batch this rank reads.
  BatchPart RankPart() const;
  // Rank 0's newest checkpoint of model_dir on every rank.
  std::optional<std::string> SharedNewestCheckpoint() const;
  // The checkpoint at `path` as rank 0 reads it, on every rank; a
  // CheckpointError naming the tensor when a value in it is not finite.
  // Every task that uses saved weights reads them here.
  Checkpoint ReadSharedCheckpoint(const std::string& path) const;
  // ReadSharedCheckpoint without the check.
  Checkpoint ReadCheckpointOnRanks(const std::string& path) const;
  // Gives every rank rank 0's weights and layer states (batch_norm's
  // moving averages, which each rank keeps from its own rows unless
  // sync_bn: as PyTorch's DDP broadcasts its buffers).
  void BroadcastModel();
  // Replaces `set`'s totals by their sums over the ranks.
  void SumOverRanks(metrics::MetricSet* set);
  // With dist_check: a TrainingError naming the first weight whose bytes
  // differ between the ranks after `rounds_done` rounds.
  void CheckWeightsAgree(int rounds_done);
  void SaveCheckpoint(int rounds_done);
  // The checkpoint pred, extract, eval and export run: model_in, else the
  // newest of model_dir; sets `path` to where it was read.
  Checkpoint InferenceCheckpoint(std::string* path) const;
  // Loads InferenceCheckpoint into the model.
  void LoadModelForInference();
  // Puts batch into the model; returns its real rows.
  index_t FeedBatch(const DataBatch& batch, bool with_labels);
  // Adds the first `rows` rows of the outputs the metrics read, against
  // `batch`'s labels.
  void AddMetrics(const DataBatch& batch, index_t rows,
                  metrics::MetricSet* metrics);
  std::string ModelDir() const;

  TrainerInputs inputs_;
  // The ranks: the caller's, or this process alone.
  dist::SingleProcess single_process_;
  dist::Communicator& ranks_;
  // Where ranks other than 0 print: nowhere.
  std::ostream null_out_{nullptr};
  std::ostream& out_;
  CheckedConfig checked_;
  std::unique_ptr<DataIterator> train_data_;
  std::vector<std::unique_ptr<EvalSet>> eval_sets_;
  std::unique_ptr<DataIterator> pred_data_;
  // Held from PrepareModelDir to the end of the run (rank 0).
  std::unique_ptr<ModelDirLock> model_dir_lock_;
  // The net and its updater on the configured device.
  std::unique_ptr<Model> model_;
  // task = export: the net on the cpu, whatever the device.
  std::unique_ptr<Network> export_net_;
  metrics::MetricSet train_metrics_;
  // Per metric: the node whose output it scores, or -1 for the net's output.
  std::vector<int> metric_nodes_;
  // Passes the training iterator has started (for resume).
  long data_passes_ = 0;
  // Whether this run starts without a checkpoint and without continue = 1.
  bool fresh_start_ = true;
  // Batches per training pass, once known (for the progress bar).
  long batches_per_pass_ = 0;
  std::vector<RoundFigures> history_;
  std::chrono::steady_clock::time_point start_;
};

// The layers' generator seed for `round`: a function of both, so that a
// resumed run draws what an uninterrupted one would.
int RoundSeed(int seed, int round);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_TRAINER_H_
