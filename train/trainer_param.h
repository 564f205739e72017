// TrainerParam: the global keys the trainer itself reads (task, dev,
// num_round, model_dir, ...), declared as a parameter struct so that they
// are checked, documented and listed by ValidateTrainConfig like every
// layer's and iterator's keys.
//
// Keys that belong to others are not here: the updater's (eta, momentum,
// wd, lr:*) come from train/optim, the layers' defaults (init_sigma,
// random_type, ...) from layers/, the iterators' (batch_size, shuffle, ...)
// from train/data. `metric` may be written several times; each line adds a
// metric.
//
// Three of cxxnet's keys carry an index (they are read here, not by the
// struct; the schema accepts `name[...]` for them):
//   metric[FIELD,NODE] = NAME    metric NAME of label field FIELD against
//                                the output of node NODE; metric[FIELD] =
//                                NAME against the net's output
//   label_vec[BEGIN,END) = NAME  label field NAME: label columns BEGIN to
//                                END - 1 ("label" is always every column)
//   extra_data_shape[I] = C,H,W  the shape of extra input node in_I (I in
//                                1..extra_data_num), checked against the
//                                data; needed where there is no data
//                                (tools check and time)
//
// Example:
//
//   TrainerParam param = ReadTrainerParam(config);  // throws ConfigError
//   if (param.task == kTaskTrain) { ... param.num_round ... }
#ifndef UMBRA_TRAIN_TRAINER_PARAM_H_
#define UMBRA_TRAIN_TRAINER_PARAM_H_

#include <optional>
#include <string>
#include <vector>

#include "param/param.h"
#include "train/config/config.h"

namespace umbra {
namespace train {

enum TrainerTask {
  kTaskTrain = 0,
  kTaskFinetune = 1,
  kTaskPred = 2,
  kTaskExtract = 3,
  kTaskEval = 4,
  kTaskExport = 5,
  // cxxnet's name of pred with output_prob = 1; ReadTrainerParam turns it
  // into that.
  kTaskPredRaw = 6,
  // cxxnet's: write one layer's wmat weight to weight_filename.
  kTaskGetWeight = 7,
};

// `output_format` of extract and get_weight.
enum OutputFormat {
  kOutputText = 0,
  kOutputBinary = 1,
};

// The name a config gives `task` ("pred" for kTaskPred).
const char* TaskName(int task);

// `dist`: how many processes train the config.
enum TrainerDist {
  kDistNone = 0,
  kDistMpi = 1,
};

// One metric line: `metric = NAME` or `metric[FIELD,NODE] = NAME`.
struct MetricSpec {
  // error, logloss, rmse, rec@k.
  std::string name;
  // The label field it reads.
  std::string field = "label";
  // The node whose output it scores, as the config names it; "" for the
  // net's output (the last layer's).
  std::string node;
  // The line that asked for it (an empty entry for the default metric).
  ConfigEntry entry;
};

// The global keys the trainer reads with an index, `name[...]`:
// extra_data_shape[I], label_vec[BEGIN,END), metric[FIELD,NODE].
inline const std::vector<std::string>& TrainerIndexedKeys() {
  static const std::vector<std::string> keys = {"extra_data_shape", "label_vec",
                                                "metric"};
  return keys;
}

// `label_vec[BEGIN,END) = NAME`.
struct LabelField {
  std::string name;
  int begin = 0;
  int end = 0;
  ConfigEntry entry;
};

struct TrainerParam : public Parameter<TrainerParam> {
  int task;
  std::string dev;
  int nthread;
  int num_round;
  int max_round;
  int start_counter;
  std::string updater;
  // Not keys: read from the `metric`, `metric[...]`, `label_vec[...]` and
  // `extra_data_shape[...]` lines. metrics is {error} when there is none;
  // extra_data_shapes has extra_data_num entries, empty where not set.
  std::vector<MetricSpec> metrics;
  std::vector<LabelField> label_fields;
  std::vector<std::vector<int>> extra_data_shapes;
  std::string metric;
  bool eval_train;
  std::string model_dir;
  int save_model;
  std::string model_in;
  bool continue_training;
  int seed;
  int extra_data_num;
  std::optional<int> batch_size;
  std::vector<int> input_shape;
  std::string extract_node_name;
  std::string extract_layer_name;
  std::string weight_filename;
  int output_format;
  bool output_prob;
  std::string onnx_path;
  bool silent;
  int print_step;
  int update_period;
  bool test_io;
  int dist;
  bool dist_check;
  bool dist_overlap;
  float dist_bucket_mb;

  UMBRA_DECLARE_PARAMETER(TrainerParam) {
    UMBRA_DECLARE_FIELD(task)
        .add_enum("train", kTaskTrain)
        .add_enum("finetune", kTaskFinetune)
        .add_enum("pred", kTaskPred)
        .add_enum("extract", kTaskExtract)
        .add_enum("eval", kTaskEval)
        .add_enum("export", kTaskExport)
        .add_enum("pred_raw", kTaskPredRaw)
        .add_enum("get_weight", kTaskGetWeight)
        .set_default(kTaskTrain)
        .describe(
            "train; finetune (train, starting from the weights of model_in "
            "matched by layer name); pred (write the predictions for the "
            "`pred = FILE` data to FILE); extract (write the output of node "
            "extract_node_name for the pred data to FILE); eval (evaluate a "
            "saved model on every eval set); export (write the model as an "
            "ONNX file to onnx_path); pred_raw (cxxnet's: pred with "
            "output_prob = 1); get_weight (cxxnet's: write the wmat weight "
            "of layer extract_layer_name to weight_filename).");
    UMBRA_DECLARE_FIELD(dev).set_default("cpu").describe(
        "Where to run: cpu, gpu or gpu:N (GPU needs a build with "
        "--config=cuda).");
    UMBRA_DECLARE_FIELD(nthread).set_default(0).set_range(0, 1024).describe(
        "CPU threads for tensor expressions and matrix products; 0: one per "
        "core.");
    UMBRA_DECLARE_FIELD(num_round).set_default(10).set_lower_bound(0).describe(
        "Rounds (passes over the training data) to train.");
    UMBRA_DECLARE_FIELD(max_round)
        .set_default(1 << 30)
        .set_lower_bound(0)
        .describe(
            "At most this many rounds in this run, counted from where it "
            "starts (a resumed run from its checkpoint), as cxxnet.");
    UMBRA_DECLARE_FIELD(start_counter)
        .set_default(0)
        .set_lower_bound(0)
        .describe(
            "A fresh run starts after this many rounds, as cxxnet: its "
            "rounds and checkpoints are numbered from start_counter + 1 and "
            "it trains until num_round (a run that resumes or finetunes "
            "starts where it must, with a note).");
    UMBRA_DECLARE_FIELD(updater).set_default("sgd").describe(
        "The optimisation rule: sgd, nag, adam, adamw, rmsprop.");
    UMBRA_DECLARE_FIELD(metric).set_default("error").describe(
        "A metric evaluated each round (error, logloss, rmse, rec@k); "
        "write the key once per metric. metric[FIELD,NODE] = NAME scores "
        "the output of node NODE against label field FIELD (label, or one "
        "named by label_vec[BEGIN,END) = FIELD: label columns BEGIN to "
        "END - 1); it prints as SET-NAME[FIELD].");
    UMBRA_DECLARE_FIELD(eval_train)
        .set_default(true)
        .describe("Report the metrics on the training batches as well.");
    UMBRA_DECLARE_FIELD(model_dir).set_default("models").describe(
        "Directory of the checkpoints (NNNN.model) and metrics.csv; one "
        "training run at a time (a lock file, .umbra-lock).");
    UMBRA_DECLARE_FIELD(save_model)
        .set_default(1)
        .set_lower_bound(0)
        .describe("Save a checkpoint every this many rounds; 0: never.");
    UMBRA_DECLARE_FIELD(model_in).set_default("").describe(
        "Checkpoint to start from (finetune, pred, extract, eval, or to "
        "resume training).");
    UMBRA_DECLARE_FIELD(continue_training)
        .set_default(false)
        .describe(
            "Resume from the newest checkpoint in model_dir, exactly where "
            "it stopped; without one, from model_in when given, else start "
            "at round 0 (refused when model_dir holds metrics.csv rows).");
    UMBRA_DECLARE_FIELD(seed).set_default(0).set_lower_bound(0).describe(
        "Seed of weight initialisation and of the layers' random numbers "
        "(dropout); the data iterators' shuffle also reads it.");
    UMBRA_DECLARE_FIELD(extra_data_num)
        .set_default(0)
        .set_range(0, 1000)
        .describe(
            "Extra input nodes in_1 ... in_N besides in, fed from the data's "
            "extra inputs (iter = binary files written with extra tensors); "
            "set before the first layer. extra_data_shape[I] = C,H,W states "
            "in_I's shape.");
    UMBRA_DECLARE_FIELD(batch_size)
        .set_default(std::nullopt)
        .set_lower_bound(1)
        .describe("Instances per batch (the iterators read it too).");
    UMBRA_DECLARE_FIELD(input_shape)
        .set_default(std::vector<int>{})
        .set_lower_bound(1)
        .describe(
            "Shape of one instance as channel,height,width; empty: the "
            "data's shape.");
    UMBRA_DECLARE_FIELD(extract_node_name)
        .set_default("")
        .describe(
            "For task = extract: the node whose output is written, by name "
            "or as top[-N], the N-th node from the end (cxxnet's; top[-1] "
            "is the last). FILE.meta gets `rows,channel,height,width`.");
    UMBRA_DECLARE_FIELD(extract_layer_name)
        .set_default("")
        .describe("For task = get_weight: the layer whose wmat is written.");
    UMBRA_DECLARE_FIELD(weight_filename)
        .set_default("")
        .describe(
            "For task = get_weight: the file written, one row of the weight "
            "per line (a conv's: one output channel); FILE.meta gets its "
            "dimensions.");
    UMBRA_DECLARE_FIELD(output_format)
        .add_enum("txt", kOutputText)
        .add_enum("bin", kOutputBinary)
        .set_default(kOutputText)
        .describe(
            "For extract and get_weight: txt (values separated by spaces, a "
            "line per instance or row) or bin (raw little-endian float32, as "
            "cxxnet's).");
    UMBRA_DECLARE_FIELD(output_prob)
        .set_default(false)
        .describe(
            "For task = pred: write every output (probabilities) instead of "
            "the arg-max class.");
    UMBRA_DECLARE_FIELD(onnx_path).set_default("").describe(
        "For task = export: the ONNX file to write (opset 13; an existing "
        "file is replaced whole, never half-written).");
    UMBRA_DECLARE_FIELD(silent).set_default(false).describe(
        "Print only errors and the per-round lines.");
    UMBRA_DECLARE_FIELD(print_step)
        .set_default(0)
        .set_lower_bound(0)
        .describe(
            "Print a progress line every this many training batches, as "
            "cxxnet (`round 3:[ 100] 12 sec elapsed, 5331 images/s`); 0: "
            "none (cxxnet's default was 100; umbra draws a progress bar on "
            "a terminal instead). Not with silent = 1.");
    UMBRA_DECLARE_FIELD(test_io).set_default(false).describe(
        "Only read the training data, num_round times, and print each "
        "pass's speed (images/s): nothing is trained, evaluated or saved "
        "(cxxnet's).");
    UMBRA_DECLARE_FIELD(update_period)
        .set_default(1)
        .set_lower_bound(1)
        .describe(
            "Batches whose gradients add up to one update (gradient "
            "accumulation, as cxxnet): batch_size = 32 with update_period = "
            "2 trains as batch_size = 64. The loss layers divide their "
            "gradients by it too; cxxnet also read it under a loss layer. A "
            "round's last update may hold fewer batches (their mean).");
    UMBRA_DECLARE_FIELD(dist)
        .add_enum("none", kDistNone)
        .add_enum("mpi", kDistMpi)
        .set_default(kDistNone)
        .describe(
            "Data-parallel training: none (this process alone), or mpi "
            "(every rank of an mpirun job trains the same config on its "
            "share of each batch: batch_size is the global batch, split "
            "over the ranks; the gradients are averaged over them; rank 0 "
            "prints and saves). E.g. mpirun -np 4 bazel-bin/train/train "
            "my.conf dist=mpi.");
    UMBRA_DECLARE_FIELD(dist_check)
        .set_default(false)
        .describe(
            "With dist = mpi: compare a checksum of every weight across the "
            "ranks after every round, and stop at the first difference.");
    UMBRA_DECLARE_FIELD(dist_overlap)
        .set_default(true)
        .describe(
            "With dist = mpi: average each bucket of gradients as soon as "
            "the layers that fill it are done with their backward pass, "
            "while the earlier layers' runs; 0: all buckets after it.");
    UMBRA_DECLARE_FIELD(dist_bucket_mb)
        .set_default(4.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe(
            "With dist = mpi: megabytes of gradients averaged in one "
            "collective (a weight larger than this alone).");
    UMBRA_DECLARE_ALIAS(continue_training, continue);
    UMBRA_DECLARE_ALIAS(extract_node_name, extract_node);
  }
};

// The trainer's settings from the global entries of `config` (only the
// keys TrainerParam declares; the others belong to layers, iterators and
// the updater), and the indexed keys above. Throws ConfigError at the line
// of a bad value or a malformed index.
TrainerParam ReadTrainerParam(const TrainConfig& config);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_TRAINER_PARAM_H_
