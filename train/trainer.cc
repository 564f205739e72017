#include "train/trainer.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "layers/layer_error.h"
#include "train/data/iterator_chain.h"
#include "train/device.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace train {

struct Trainer::EvalSet {
  std::string name;
  std::unique_ptr<DataIterator> data;
  optim::MetricSet metrics;
};

namespace {

bool IsTraining(int task) {
  return task == kTaskTrain || task == kTaskFinetune;
}

// The global entry that set `key` last, for error locations.
const ConfigEntry* FindEntry(const TrainConfig& config,
                             const std::string& key) {
  const ConfigEntry* found = nullptr;
  for (const ConfigEntry& entry : config.globals) {
    if (entry.key == key) found = &entry;
  }
  return found;
}

ConfigError GlobalError(const TrainConfig& config, const std::string& key,
                        const std::string& detail) {
  const ConfigEntry* entry = FindEntry(config, key);
  return ConfigError(entry != nullptr ? entry->location : SourceLocation(), key,
                     detail);
}

// The net's input shape: the data's, checked against batch_size and
// input_shape when the config sets them.
Shape<4> InputShape(const TrainConfig& config, const TrainerParam& param,
                    const DataIterator& data, const IteratorChain& chain) {
  const Shape<4> shape = data.data_shape();
  if (param.batch_size && *param.batch_size != static_cast<int>(shape[0])) {
    throw GlobalError(
        config, "batch_size",
        absl::StrCat("batch_size = ", *param.batch_size, " but ",
                     chain.Describe(), " makes batches of ", shape[0]));
  }
  if (!param.input_shape.empty()) {
    const std::vector<int>& want = param.input_shape;
    const bool same = want.size() == 3 &&
                      want[0] == static_cast<int>(shape[1]) &&
                      want[1] == static_cast<int>(shape[2]) &&
                      want[2] == static_cast<int>(shape[3]);
    if (!same) {
      throw GlobalError(
          config, "input_shape",
          absl::StrCat("input_shape does not match the instances of ",
                       chain.Describe(), ", which are ", ShapeText(shape),
                       " per batch (batch,channel,height,width); write it as "
                       "channel,height,width"));
    }
  }
  return shape;
}

}  // namespace

int RoundSeed(int seed, int round) {
  const uint32_t mixed = static_cast<uint32_t>(seed) * 2654435761u +
                         static_cast<uint32_t>(round + 1) * 40503u;
  return static_cast<int>(mixed & 0x7fffffffu);
}

Trainer::Trainer(TrainerInputs inputs, std::ostream& out)
    : inputs_(std::move(inputs)),
      out_(out),
      start_(std::chrono::steady_clock::now()) {
  const TrainConfig& config = inputs_.config;
  const KeySchema schema = MakeTrainerSchema();
  ValidateTrainConfig(config, schema);
  param_ = ReadTrainerParam(config);
  try {
    SetUpDevice(ParseDevice(param_.dev), param_.nthread);
  } catch (const DeviceError& e) {
    throw GlobalError(config, "dev", e.what());
  }

  // The data the task reads, and the chain that sets the net's shape.
  const IteratorChain* shape_chain = nullptr;
  DataIterator* shape_data = nullptr;
  if (IsTraining(param_.task)) {
    const IteratorChain* chain = config.TrainIterator();
    if (chain == nullptr) {
      throw GlobalError(config, "task",
                        "training needs a `data = train` block with the "
                        "training iterator");
    }
    train_data_ = CreateIteratorChain(config, *chain);
    shape_chain = chain;
    shape_data = train_data_.get();
  }
  if (param_.task == kTaskPred || param_.task == kTaskExtract) {
    const IteratorChain* chain = config.PredIterator();
    if (chain == nullptr) {
      throw GlobalError(config, "task",
                        "task = pred and task = extract need a `pred = "
                        "FILE` block: its data, and the file to write");
    }
    pred_data_ = CreateIteratorChain(config, *chain);
    shape_chain = chain;
    shape_data = pred_data_.get();
  }
  if (IsTraining(param_.task) || param_.task == kTaskEval) {
    for (const IteratorChain* chain : config.EvalIterators()) {
      auto set = std::make_unique<EvalSet>();
      set->name = chain->name;
      set->data = CreateIteratorChain(config, *chain);
      if (shape_chain == nullptr) {
        shape_chain = chain;
        shape_data = set->data.get();
      } else if (!(set->data->data_shape() == shape_data->data_shape())) {
        throw ConfigError(
            chain->declaration.location, chain->declaration.key,
            absl::StrCat(chain->Describe(), " makes batches of ",
                         ShapeText(set->data->data_shape()), " but ",
                         shape_chain->Describe(), " of ",
                         ShapeText(shape_data->data_shape()),
                         "; the net takes one shape (set batch_size and "
                         "input_shape globally)"));
      }
      eval_sets_.push_back(std::move(set));
    }
    if (param_.task == kTaskEval && eval_sets_.empty()) {
      throw GlobalError(config, "task",
                        "task = eval needs at least one `eval = NAME` block");
    }
  }

  net_ = std::make_unique<Network>(
      config, schema, InputShape(config, param_, *shape_data, *shape_chain));
  if (!param_.silent) out_ << net_->Summary() << std::flush;

  // Metrics: every `metric` line, for the training data and each eval set.
  try {
    for (const std::string& name : param_.metric_list) {
      if (param_.eval_train) train_metrics_.AddMetric(name);
      for (auto& set : eval_sets_) set->metrics.AddMetric(name);
      if (!param_.eval_train && eval_sets_.empty()) {
        optim::CreateMetric(name);  // checks the name all the same
      }
    }
  } catch (const optim::OptimError& e) {
    throw GlobalError(config, "metric", e.what());
  }

  if (IsTraining(param_.task)) {
    if (!net_->has_loss()) {
      throw ConfigError(
          config.net.layers.back().declaration.location,
          config.net.layers.back().declaration.key,
          "the net has no loss layer to train with: end it with softmax, "
          "l2_loss, lp_loss or multi_logistic");
    }
    std::vector<ConfigEntry> entries;
    std::vector<std::string> keys;
    try {
      keys = optim::UpdaterKeys(param_.updater);
    } catch (const optim::OptimError& e) {
      throw GlobalError(config, "updater", e.what());
    }
    for (const ConfigEntry& entry : config.globals) {
      for (const std::string& key : keys) {
        if (entry.key == key) entries.push_back(entry);
      }
    }
    try {
      updater_ = optim::CreateUpdater<cpu, float>(param_.updater,
                                                  ToParamKwargs(entries));
      for (const auto& weight : net_->Weights()) updater_->AddWeight(weight);
    } catch (const optim::OptimError& e) {
      const std::string key = e.key().empty() ? "updater" : e.key();
      throw GlobalError(config, key, e.what());
    }
  }
}

Trainer::~Trainer() = default;

void Trainer::Run() {
  switch (param_.task) {
    case kTaskTrain:
    case kTaskFinetune:
      Train();
      break;
    case kTaskPred:
    case kTaskExtract:
      Predict();
      break;
    case kTaskEval:
      EvaluateTask();
      break;
  }
}

std::string Trainer::ModelDir() const { return param_.model_dir; }

index_t Trainer::FeedBatch(const DataBatch& batch, bool with_labels) {
  Copy(net_->input(), batch.data);
  if (with_labels) {
    net_->SetLabel("label",
                   Tensor<cpu, 2, float>(const_cast<float*>(batch.label.dptr_),
                                         batch.label.shape_));
  } else {
    net_->ClearLabels();
  }
  return batch.batch_size - batch.num_batch_padd;
}

Tensor<cpu, 2, float> Trainer::OutputRows(index_t rows) const {
  Tensor<cpu, 2, float> output = net_->Output();
  return Tensor<cpu, 2, float>(output.dptr_, Shape2(rows, output.size(1)));
}

void Trainer::Train() {
  const int first_round = PrepareTraining();
  const int last_round = std::min(param_.num_round, param_.max_round);
  if (first_round >= last_round && !param_.silent) {
    out_ << "nothing to train: " << first_round
         << " rounds done, num_round = " << param_.num_round << "\n";
  }
  for (int round = first_round; round < last_round; ++round) {
    const auto round_start = std::chrono::steady_clock::now();
    const long instances = TrainRound(round);
    const double train_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                      round_start)
            .count();
    RoundFigures figures;
    figures.round = round + 1;
    figures.images_per_second =
        train_seconds > 0 ? instances / train_seconds : 0.0;
    for (const optim::MetricResult& result : train_metrics_.Results()) {
      figures.metrics.emplace_back("train-" + result.label, result.value);
    }
    EvaluateSets(&figures);
    figures.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    out_ << FormatRoundLine(figures) << std::endl;
    history_.push_back(figures);
    if (!param_.model_dir.empty()) {
      MakeDirectories(ModelDir());
      AppendMetricsCsv(ModelDir() + "/metrics.csv", figures);
      const bool periodic =
          param_.save_model > 0 && (round + 1) % param_.save_model == 0;
      if (periodic || (param_.save_model > 0 && round + 1 == last_round)) {
        SaveCheckpoint(round + 1);
      }
    }
  }
}

long Trainer::TrainRound(int round) {
  updater_->StartRound(round);
  net_->rnd().Seed(RoundSeed(param_.seed, round));
  train_metrics_.Clear();
  train_data_->BeforeFirst();
  ++data_passes_;
  ProgressBar bar(round + 1, batches_per_pass_);
  long batches = 0;
  long instances = 0;
  while (train_data_->Next()) {
    const DataBatch& batch = train_data_->Value();
    const index_t rows = FeedBatch(batch, true);
    net_->Forward(true);
    const double loss = net_->Loss();
    if (!std::isfinite(loss)) {
      bar.Finish();
      const std::string where = net_->TraceNonFinite(true);
      throw TrainingError(absl::StrCat(
          "round ", round + 1, ", batch ", batches + 1, ": the loss is ", loss,
          "; ", where.empty() ? "no layer output is" : where,
          ". Lower eta, or check the data and init_sigma"));
    }
    if (param_.eval_train && rows > 0) {
      Tensor<cpu, 2, float> labels(const_cast<float*>(batch.label.dptr_),
                                   Shape2(rows, batch.label.size(1)));
      train_metrics_.Add(OutputRows(rows), {{"label", labels}});
    }
    net_->Backprop();
    updater_->Update();
    ++batches;
    instances += rows;
    bar.Update(batches);
  }
  bar.Finish();
  batches_per_pass_ = batches;
  return instances;
}

void Trainer::EvaluateSets(RoundFigures* figures) {
  for (auto& set : eval_sets_) {
    set->metrics.Clear();
    set->data->BeforeFirst();
    while (set->data->Next()) {
      const DataBatch& batch = set->data->Value();
      const index_t rows = FeedBatch(batch, true);
      net_->Forward(false);
      if (rows == 0) continue;
      Tensor<cpu, 2, float> labels(const_cast<float*>(batch.label.dptr_),
                                   Shape2(rows, batch.label.size(1)));
      set->metrics.Add(OutputRows(rows), {{"label", labels}});
    }
    for (const optim::MetricResult& result : set->metrics.Results()) {
      figures->metrics.emplace_back(set->name + "-" + result.label,
                                    result.value);
    }
  }
}

}  // namespace train
}  // namespace umbra
