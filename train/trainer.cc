#include "train/trainer.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "train/data/iterator_chain.h"

namespace umbra {
namespace train {

struct Trainer::EvalSet {
  std::string name;
  std::unique_ptr<DataIterator> data;
  metrics::MetricSet metrics;
};

namespace {

// The shape of every batch `data` gives: its data's, then its extra
// inputs'.
std::vector<Shape<4>> BatchShapes(const DataIterator& data) {
  std::vector<Shape<4>> shapes = {data.data_shape()};
  for (const Shape<4>& extra : data.extra_data_shapes()) {
    shapes.push_back(extra);
  }
  return shapes;
}

// "(batch,channel,height,width)" of every shape.
std::string ShapesText(const std::vector<Shape<4>>& shapes) {
  std::string text;
  for (const Shape<4>& shape : shapes) {
    absl::StrAppend(&text, text.empty() ? "" : " ", ShapeText(shape));
  }
  return text;
}

// The net's input shapes (in, in_1, ..., in_N): the data's (one rank's
// share of each batch split over `ranks`), checked against batch_size,
// input_shape, extra_data_num and extra_data_shape[I] when the config sets
// them.
std::vector<Shape<4>> InputShapes(const TrainConfig& config,
                                  const TrainerParam& param,
                                  const DataIterator& data,
                                  const IteratorChain& chain, int ranks) {
  const std::vector<Shape<4>> shapes = BatchShapes(data);
  const Shape<4>& shape = shapes[0];
  const index_t global_batch = shape[0] * ranks;
  if (param.batch_size && *param.batch_size != static_cast<int>(global_batch)) {
    throw GlobalError(
        config, "batch_size",
        absl::StrCat("batch_size = ", *param.batch_size, " but ",
                     chain.Describe(), " makes batches of ", global_batch));
  }
  auto same = [](const std::vector<int>& want, const Shape<4>& got) {
    return want.size() == 3 && want[0] == static_cast<int>(got[1]) &&
           want[1] == static_cast<int>(got[2]) &&
           want[2] == static_cast<int>(got[3]);
  };
  if (!param.input_shape.empty() && !same(param.input_shape, shape)) {
    throw GlobalError(
        config, "input_shape",
        absl::StrCat("input_shape does not match the instances of ",
                     chain.Describe(), ", which are ", ShapeText(shape),
                     " per batch (batch,channel,height,width); write it as "
                     "channel,height,width"));
  }
  const int extras = static_cast<int>(shapes.size()) - 1;
  if (extras != param.extra_data_num) {
    throw GlobalError(
        config, "extra_data_num",
        extras < param.extra_data_num
            ? absl::StrCat(
                  "extra_data_num = ", param.extra_data_num, " but ",
                  chain.Describe(), " gives ", extras,
                  " extra inputs per instance; extra inputs come from iter "
                  "= binary files written with extra tensors "
                  "(train/data/binary_format.h)")
            : absl::StrCat(
                  chain.Describe(), " gives ", extras,
                  " extra inputs per instance; set extra_data_num = ", extras,
                  " (before the first layer) to read them "
                  "as nodes in_1 ... in_",
                  extras));
  }
  for (int k = 0; k < extras; ++k) {
    const std::vector<int>& want = param.extra_data_shapes[k];
    if (!want.empty() && !same(want, shapes[k + 1])) {
      throw GlobalError(
          config, absl::StrCat("extra_data_shape[", k + 1, "]"),
          absl::StrCat("extra input ", k + 1, " of ", chain.Describe(), " is ",
                       ShapeText(shapes[k + 1]),
                       " per batch (batch,channel,height,width), not ",
                       absl::StrJoin(want, ","),
                       "; write it as channel,height,width"));
    }
  }
  return shapes;
}

}  // namespace

int RoundSeed(int seed, int round) {
  const uint32_t mixed = static_cast<uint32_t>(seed) * 2654435761u +
                         static_cast<uint32_t>(round + 1) * 40503u;
  return static_cast<int>(mixed & 0x7fffffffu);
}

Trainer::Trainer(TrainerInputs inputs, std::ostream& out,
                 dist::Communicator* ranks)
    : inputs_(std::move(inputs)),
      ranks_(ranks != nullptr ? *ranks : single_process_),
      out_(ranks_.rank() == 0 ? out : null_out_),
      checked_(CheckConfig(std::move(inputs_.config),
                           {ranks_.local_rank(), ranks_.local_size()})),
      start_(std::chrono::steady_clock::now()) {
  const TrainConfig& config = checked_.config;
  const TrainerParam& param = checked_.param;
  for (const ConfigNotice& notice : checked_.notices) {
    out_ << notice.ToString() << "\n";
  }
  CheckRanksAgree();
  if (param.task == kTaskExport) {
    PrepareExport();
    return;
  }
  CheckBeforeData();
  if (param.task == kTaskGetWeight) return;  // reads only the checkpoint

  // The data the task reads, and the chain that sets the net's shape.
  const IteratorChain* shape_chain = nullptr;
  DataIterator* shape_data = nullptr;
  if (IsTraining(param)) {
    const IteratorChain* chain = config.TrainIterator();
    train_data_ = CreateIteratorChain(config, *chain, RankPart());
    shape_chain = chain;
    shape_data = train_data_.get();
  }
  if (param.task == kTaskPred || param.task == kTaskExtract) {
    const IteratorChain* chain = config.PredIterator();
    pred_data_ = CreateIteratorChain(config, *chain);
    shape_chain = chain;
    shape_data = pred_data_.get();
  }
  if (IsTraining(param) || param.task == kTaskEval) {
    for (const IteratorChain* chain : config.EvalIterators()) {
      if (chain->name == "train" && IsTraining(param) && param.eval_train) {
        throw chain->declaration.Error(
            "eval = train would print its metrics as train-NAME, as "
            "eval_train = 1 does for the training batches; name the block "
            "otherwise, or set eval_train = 0");
      }
      auto set = std::make_unique<EvalSet>();
      set->name = chain->name;
      set->data = CreateIteratorChain(config, *chain, RankPart());
      if (shape_chain == nullptr) {
        shape_chain = chain;
        shape_data = set->data.get();
      } else if (BatchShapes(*set->data) != BatchShapes(*shape_data)) {
        throw chain->declaration.Error(
            absl::StrCat(chain->Describe(), " makes batches of ",
                         ShapesText(BatchShapes(*set->data)), " but ",
                         shape_chain->Describe(), " of ",
                         ShapesText(BatchShapes(*shape_data)),
                         "; the net takes one shape (set batch_size and "
                         "input_shape globally)"));
      }
      eval_sets_.push_back(std::move(set));
    }
  }

  metric_nodes_ = CheckMetrics(checked_, shape_data->label_width());
  model_ = CreateModel(
      checked_,
      InputShapes(config, param, *shape_data, *shape_chain, ranks_.size()),
      IsTraining(param), ranks_);
  CheckMetricColumns(checked_, metric_nodes_, shape_data->label_width(),
                     [&](int node) {
                       const Shape<4> shape = model_->NodeShape(node);
                       return shape.Size() / shape[0];
                     });
  if (!param.silent) out_ << model_->Summary() << std::flush;
  for (const MetricSpec& spec : param.metrics) {
    if (param.eval_train) train_metrics_.AddMetric(spec.name, spec.field);
    for (auto& set : eval_sets_) set->metrics.AddMetric(spec.name, spec.field);
  }
}

Trainer::~Trainer() = default;

void Trainer::CheckBeforeData() const {
  const TrainerParam& param = checked_.param;
  CheckTaskData(checked_);
  // With the shapes the config sets, the net and its updater are built
  // once without data: a bad layer or updater value is found before the
  // data is read. On the cpu of a single process only: another device's
  // net, or one rank's share of the batch, would be judged by the wrong
  // memory.
  if (ParseDevice(param.dev).kind != DeviceChoice::kCpu || ranks_.size() > 1) {
    return;
  }
  std::vector<Shape<4>> shapes;
  try {
    shapes = ConfiguredInputShapes(checked_);
  } catch (const ConfigError&) {
    return;  // the data gives the shapes
  }
  BuildNet<cpu>(checked_, shapes, IsTraining(param));
}

void Trainer::Run() {
  switch (checked_.param.task) {
    case kTaskTrain:
    case kTaskFinetune:
      Train();
      break;
    case kTaskPred:
    case kTaskPredRaw:  // read as pred with output_prob
    case kTaskExtract:
      Predict();
      break;
    case kTaskEval:
      EvaluateTask();
      break;
    case kTaskExport:
      ExportModel();
      break;
    case kTaskGetWeight:
      WriteWeight();
      break;
  }
}

std::vector<Shape<4>> Trainer::ExportInputShapes() const {
  const TrainConfig& config = checked_.config;
  CheckedConfig one_instance = checked_;
  one_instance.param.batch_size = 1;
  const std::vector<const IteratorChain*> evals = config.EvalIterators();
  const IteratorChain* chain = config.PredIterator() != nullptr
                                   ? config.PredIterator()
                               : !evals.empty() ? evals.front()
                                                : config.TrainIterator();
  // Without input_shape or data, ConfiguredInputShapes says what to set.
  if (!checked_.param.input_shape.empty() || chain == nullptr) {
    return ConfiguredInputShapes(one_instance);
  }
  std::vector<Shape<4>> shapes =
      BatchShapes(*CreateIteratorChain(config, *chain));
  for (Shape<4>& shape : shapes) shape[0] = 1;
  return shapes;
}

std::string Trainer::ModelDir() const { return checked_.param.model_dir; }

index_t Trainer::FeedBatch(const DataBatch& batch, bool with_labels) {
  model_->Feed(batch, with_labels);
  return batch.batch_size - batch.num_batch_padd;
}

void Trainer::AddMetrics(const DataBatch& batch, index_t rows,
                         metrics::MetricSet* metrics) {
  std::vector<Tensor<cpu, 2, float>> outputs;
  for (int node : metric_nodes_)
    outputs.push_back(model_->HostRows(node, rows));
  metrics->Add(outputs,
               HostLabelFields(batch, checked_.param.label_fields, rows));
}

void Trainer::ReadDataOnly() {
  for (int round = 0; round < checked_.param.num_round; ++round) {
    const auto round_start = std::chrono::steady_clock::now();
    train_data_->BeforeFirst();
    long instances = 0;
    while (train_data_->Next()) {
      const DataBatch& batch = train_data_->Value();
      instances += batch.batch_size - batch.num_batch_padd;
    }
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - round_start)
                               .count();
    RoundFigures figures;
    figures.round = round + 1;
    figures.images_per_second = seconds > 0 ? instances / seconds : 0.0;
    figures.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    out_ << FormatRoundLine(figures) << std::endl;
  }
}

void Trainer::Train() {
  if (checked_.param.test_io) return ReadDataOnly();
  const int first_round = PrepareTraining();
  BroadcastModel();
  // As cxxnet: max_round bounds the rounds of this run, num_round the round
  // training ends at.
  const int max_round = checked_.param.max_round;
  const int num_round = checked_.param.num_round;
  const int last_round =
      std::min(num_round, first_round + std::min(max_round, num_round));
  if (ranks_.rank() == 0) PrepareModelDir(first_round, last_round);
  if (first_round >= last_round && !checked_.param.silent) {
    out_ << "nothing to train: " << first_round << " rounds done, "
         << (first_round >= num_round
                 ? "num_round = " + std::to_string(num_round)
                 : "max_round = 0 (the rounds this run may train)")
         << "\n";
  }
  for (int round = first_round; round < last_round; ++round) {
    const auto round_start = std::chrono::steady_clock::now();
    const long instances = TrainRound(round);
    const double train_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                      round_start)
            .count();
    // Over the ranks: the instances, and each rank's share of waiting.
    const double wait_seconds = model_->TakeCommWaitSeconds();
    double totals[3] = {static_cast<double>(instances),
                        train_seconds > 0 ? wait_seconds / train_seconds : 0.0,
                        static_cast<double>(train_data_->bad_instances())};
    ranks_.SumInPlace(totals, 3);
    SumOverRanks(&train_metrics_);
    CheckWeightsAgree(round + 1);
    BroadcastModel();
    RoundFigures figures;
    figures.round = round + 1;
    figures.images_per_second =
        train_seconds > 0 ? totals[0] / train_seconds : 0.0;
    figures.ranks = ranks_.size();
    figures.comm_wait_share = totals[1] / ranks_.size();
    figures.bad_images = static_cast<long>(totals[2]);
    for (const metrics::MetricResult& result : train_metrics_.Results()) {
      figures.metrics.emplace_back("train-" + result.label, result.value);
    }
    EvaluateSets(&figures);
    figures.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    out_ << FormatRoundLine(figures) << std::endl;
    history_.push_back(figures);
    if (ranks_.rank() == 0) {
      AppendMetricsCsv(ModelDir() + "/metrics.csv", figures);
      const bool periodic = checked_.param.save_model > 0 &&
                            (round + 1) % checked_.param.save_model == 0;
      if (periodic ||
          (checked_.param.save_model > 0 && round + 1 == last_round)) {
        SaveCheckpoint(round + 1);
      }
    }
  }
}

void Trainer::ForwardNaming(const DataBatch& batch, bool is_train,
                            absl::FunctionRef<std::string()> where) {
  try {
    model_->Forward(is_train);
  } catch (const layers::LayerError& e) {
    if (!e.row() || *e.row() >= static_cast<index_t>(batch.inst_index.size())) {
      throw;
    }
    throw TrainingError(
        absl::StrCat(where(), ": ", e.what(), " (row ", *e.row(),
                     " holds instance ", batch.inst_index[*e.row()],
                     ", counting from 0 in the order of the data file)"));
  }
}

long Trainer::TrainRound(int round) {
  model_->StartRound(round);
  model_->SeedLayers(RoundSeed(checked_.param.seed, round));
  train_metrics_.Clear();
  train_data_->BeforeFirst();
  ++data_passes_;
  ProgressBar bar(round + 1, batches_per_pass_, ranks_.rank() == 0);
  const auto round_start = std::chrono::steady_clock::now();
  const int print_step = checked_.param.silent ? 0 : checked_.param.print_step;
  const int update_period = checked_.param.update_period;
  // Batches whose gradients wait for the next update.
  int pending = 0;
  long batches = 0;
  long instances = 0;
  while (train_data_->Next()) {
    const DataBatch& batch = train_data_->Value();
    const index_t rows = FeedBatch(batch, true);
    ForwardNaming(batch, true, [&] {
      return absl::StrCat("round ", round + 1, ", batch ", batches + 1,
                          " of data train");
    });
    const double loss = model_->Loss();
    if (!std::isfinite(loss)) {
      bar.Finish();
      const std::string where = model_->TraceNonFinite(true);
      throw TrainingError(absl::StrCat(
          "round ", round + 1, ", batch ", batches + 1, ": the loss is ", loss,
          "; ", where.empty() ? "no layer output is" : where,
          ". Lower eta, or check the data and init_sigma"));
    }
    if (checked_.param.eval_train && rows > 0) {
      AddMetrics(batch, rows, &train_metrics_);
    }
    ++pending;
    model_->Backprop(/*sum_over_ranks=*/pending == update_period);
    if (pending == update_period) {
      model_->Update(/*gradient_scale=*/1.0);
      pending = 0;
    }
    ++batches;
    instances += rows;
    if (print_step > 0 && batches % print_step == 0) {
      bar.Finish();
      const auto now = std::chrono::steady_clock::now();
      const double round_seconds =
          std::chrono::duration<double>(now - round_start).count();
      out_ << FormatProgressLine(
                  round + 1, batches,
                  std::chrono::duration<double>(now - start_).count(),
                  round_seconds > 0 ? instances * ranks_.size() / round_seconds
                                    : 0.0)
           << std::endl;
    }
    bar.Update(batches);
  }
  bar.Finish();
  if (pending > 0) {
    // The round's last update holds fewer batches: their mean, so that a
    // checkpoint never holds half an update.
    model_->SumGradientsOverRanks();
    model_->Update(static_cast<double>(update_period) / pending);
  }
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
      ForwardNaming(batch, false, [&] { return "eval " + set->name; });
      if (rows > 0) AddMetrics(batch, rows, &set->metrics);
    }
    SumOverRanks(&set->metrics);
    for (const metrics::MetricResult& result : set->metrics.Results()) {
      figures->metrics.emplace_back(set->name + "-" + result.label,
                                    result.value);
    }
  }
}

}  // namespace train
}  // namespace umbra
