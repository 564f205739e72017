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
#include "train/config.h"

namespace umbra {
namespace train {

enum TrainerTask {
  kTaskTrain = 0,
  kTaskFinetune = 1,
  kTaskPred = 2,
  kTaskExtract = 3,
  kTaskEval = 4,
};

struct TrainerParam : public Parameter<TrainerParam> {
  int task;
  std::string dev;
  int nthread;
  int num_round;
  int max_round;
  std::string updater;
  std::vector<std::string> metric_list;  // not a key: filled from `metric`
  std::string metric;
  bool eval_train;
  std::string model_dir;
  int save_model;
  std::string model_in;
  bool continue_training;
  int seed;
  std::optional<int> batch_size;
  std::vector<int> input_shape;
  std::string extract_node_name;
  bool output_prob;
  bool silent;

  UMBRA_DECLARE_PARAMETER(TrainerParam) {
    UMBRA_DECLARE_FIELD(task)
        .add_enum("train", kTaskTrain)
        .add_enum("finetune", kTaskFinetune)
        .add_enum("pred", kTaskPred)
        .add_enum("extract", kTaskExtract)
        .add_enum("eval", kTaskEval)
        .set_default(kTaskTrain)
        .describe(
            "train; finetune (train, starting from the weights of model_in "
            "matched by layer name); pred (write the predictions for the "
            "`pred = FILE` data to FILE); extract (write the output of node "
            "extract_node_name for the pred data to FILE); eval (evaluate a "
            "saved model on every eval set).");
    UMBRA_DECLARE_FIELD(dev).set_default("cpu").describe(
        "Where to run: cpu, gpu or gpu:N (GPU needs a build with "
        "--config=cuda).");
    UMBRA_DECLARE_FIELD(nthread).set_default(0).set_lower_bound(0).describe(
        "CPU threads for tensor expressions; 0: one per core.");
    UMBRA_DECLARE_FIELD(num_round).set_default(10).set_lower_bound(0).describe(
        "Rounds (passes over the training data) to train.");
    UMBRA_DECLARE_FIELD(max_round)
        .set_default(1 << 30)
        .set_lower_bound(0)
        .describe(
            "Never train past this round, also when continuing (cxxnet).");
    UMBRA_DECLARE_FIELD(updater).set_default("sgd").describe(
        "The optimisation rule: sgd, nag, adam, adamw, rmsprop.");
    UMBRA_DECLARE_FIELD(metric).set_default("error").describe(
        "A metric evaluated each round (error, logloss, rmse, rec@k); "
        "write the key once per metric.");
    UMBRA_DECLARE_FIELD(eval_train)
        .set_default(true)
        .describe("Report the metrics on the training batches as well.");
    UMBRA_DECLARE_FIELD(model_dir).set_default("models").describe(
        "Directory of the checkpoints (NNNN.model) and metrics.csv.");
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
            "it stopped.");
    UMBRA_DECLARE_FIELD(seed).set_default(0).set_lower_bound(0).describe(
        "Seed of weight initialisation and of the layers' random numbers "
        "(dropout); the data iterators' shuffle also reads it.");
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
        .describe("For task = extract: the node whose output is written.");
    UMBRA_DECLARE_FIELD(output_prob)
        .set_default(false)
        .describe(
            "For task = pred: write every output (probabilities) instead of "
            "the arg-max class.");
    UMBRA_DECLARE_FIELD(silent).set_default(false).describe(
        "Print only errors and the per-round lines.");
    UMBRA_DECLARE_ALIAS(continue_training, continue);
    UMBRA_DECLARE_ALIAS(extract_node_name, extract_node);
  }
};

// The trainer's settings from the global entries of `config` (only the
// keys TrainerParam declares; the others belong to layers, iterators and
// the updater), with every `metric` line in metric_list (default "error").
// Throws ConfigError at the line of a bad value.
TrainerParam ReadTrainerParam(const TrainConfig& config);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_TRAINER_PARAM_H_
