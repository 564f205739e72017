// The trainer's start-up on a config up to its net, before any data is
// read. The trainer and the tools that build a net without data (check,
// time) share it, so they accept and refuse exactly the same configs:
//
//   CheckConfig          every key checked, the trainer's settings read,
//                        the device set up
//   CheckMetrics         the metric lines against the net and the data
//   BuildNet             the net for given input shapes, with its updater
//   BuildNetWithoutData  all of them, with the input shapes the config sets
//                        (BuildNetWithoutDataOn<xpu>: on a device)
//
// Example:
//
//   NetWithoutData built = BuildNetWithoutData(
//       LoadTrainConfig("mnist.conf", {"batch_size=32"}));
//   std::cout << built.net->Summary();
//
// Every error is a ConfigError at the config line at fault (or the
// command-line argument), naming the key.
#ifndef UMBRA_TRAIN_NET_SETUP_H_
#define UMBRA_TRAIN_NET_SETUP_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "train/config/config.h"
#include "train/device.h"
#include "train/net/network.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_param.h"

namespace umbra {
namespace train {

// A config whose keys are all known, with the trainer's settings read.
struct CheckedConfig {
  TrainConfig config;
  KeySchema schema;
  TrainerParam param;
  // cxxnet keys that have no effect, dropped from `config`, and warnings
  // (cxxnet_notices.h).
  std::vector<ConfigNotice> notices;
};

// Drops cxxnet's inert keys with a notice each (cxxnet_notices.h),
// checks every other key of `config` against the shipped trainer's schema
// (layers, iterators, updaters, the trainer's keys), reads the trainer's
// settings and sets up the device (dev, nthread) for a process that is
// `local`'s rank among the data-parallel ranks on its machine.
CheckedConfig CheckConfig(TrainConfig config, LocalRanks local = {});

// Whether `param`'s task trains (train or finetune).
bool IsTraining(const TrainerParam& param);

// The node extract_node_name names: a node's name, or cxxnet's top[-N], the
// N-th node from the end in the order the netconfig creates them (top[-1]
// the last). -1 when there is none.
int FindExtractNode(const NetConfig& net, const std::string& name);

// What the task needs of the config's data blocks and files, before any
// data is read: the blocks it reads exist (`data = train` to train, `pred =
// FILE` for pred and extract, an `eval` block for eval), every block starts
// with a source stage, the files their sources read open, the files pred,
// extract and get_weight write (with their .meta) do not exist yet,
// extract's node and get_weight's layer exist, and finetune has model_in.
// The trainer and //tools:check both run it. Throws ConfigError.
void CheckTaskData(const CheckedConfig& checked);

// A ConfigError about global `key`, at the line that set it last; when no
// line sets it, at the last line that sets the first of `related` that one
// does, else at the config file as a whole.
ConfigError GlobalError(const TrainConfig& config, const std::string& key,
                        const std::string& detail,
                        const std::vector<std::string>& related = {});

// Checks every metric line: a known metric, a label field that exists
// ("label", or one of label_vec's, within `label_width` columns when the
// data is known), a node of the net, and no two metrics that print the same
// name (cxxnet's SET-METRIC[FIELD] leaves out the node). Returns the node
// each metric scores, -1 for the net's output.
std::vector<int> CheckMetrics(const CheckedConfig& checked,
                              std::optional<index_t> label_width);

// Checks what the metrics need of the net's outputs: rmse as many outputs
// per instance on its node (`outputs(node)`, node -1 the net's output) as
// its label field has columns (`label`: `label_width`; a label_vec field:
// its width). `metric_nodes` is what CheckMetrics returned. Throws
// ConfigError at the metric line.
void CheckMetricColumns(const CheckedConfig& checked,
                        const std::vector<int>& metric_nodes,
                        index_t label_width,
                        const std::function<index_t(int node)>& outputs);

// The label_width a config's training data (else its first data block)
// sets, 1 when it sets none: the label columns without reading data.
index_t ConfiguredLabelWidth(const CheckedConfig& checked);

// The net of a checked config on device xpu for batches of `input_shapes`
// (in, in_1, ...; see BasicNetwork; `split` when they are a rank's share of
// a data-parallel batch), with its weights uninitialised, and when
// `with_updater` the updater holding its weights (the net must then have a
// loss layer).
template <typename xpu>
struct BuiltNet {
  std::unique_ptr<BasicNetwork<xpu>> net;
  std::unique_ptr<optim::Updater<xpu, float>> updater;
};
template <typename xpu>
BuiltNet<xpu> BuildNet(const CheckedConfig& checked,
                       const std::vector<Shape<4>>& input_shapes,
                       bool with_updater, const NetSplit<xpu>& split = {});

// The input shapes the config sets without data: batch_size, input_shape
// and extra_data_shape[I]; a ConfigError that says how to set the missing
// ones (at the first layer line when no line sets them).
std::vector<Shape<4>> ConfiguredInputShapes(const CheckedConfig& checked);

// The net of a config CheckConfig has checked, as the trainer would build
// it without data, on device xpu (set up by CheckConfig): the metrics
// checked, the net for ConfiguredInputShapes with its weights initialised
// from the config's `seed`, and the updater when the task trains.
template <typename xpu>
struct NetWithoutDataOn {
  TrainConfig config;
  TrainerParam param;
  std::vector<ConfigNotice> notices;
  std::unique_ptr<BasicNetwork<xpu>> net;
  // Null unless the task trains.
  std::unique_ptr<optim::Updater<xpu, float>> updater;
};
template <typename xpu>
NetWithoutDataOn<xpu> BuildNetWithoutDataOn(const CheckedConfig& checked);

// BuildNetWithoutDataOn<cpu> after every check above: the net is on the cpu
// whatever `dev` says (which is still checked and set up).
using NetWithoutData = NetWithoutDataOn<cpu>;
NetWithoutData BuildNetWithoutData(TrainConfig config);

namespace internal {

// Throws the ConfigError for a net without a loss layer, at its last layer.
[[noreturn]] void ThrowNoLossLayer(const TrainConfig& config);
// The updater's keys among the global entries, as its Configure takes
// them. Throws ConfigError for an unknown updater.
ParamKwargs UpdaterKwargs(const CheckedConfig& checked);
// The updaters that read `key` (after its weight tag, if any:
// `wmat:momentum`, `bias:lr:step`) when `updater` does not; empty when it
// does or when no updater reads the key. Such a key has no effect.
std::vector<std::string> OtherUpdatersReading(const std::string& key,
                                              const std::string& updater);
// The updater settings of each weight with keys of its own: the global
// ones of its tag (TrainConfig::tagged_updater_settings), then its layer's
// untagged ones, then the layer's of its tag
// (LayerDeclaration::updater_settings), as (weight name, pairs) for
// Updater::SetWeightSettings; keys only other updaters read are left out.
// `weights` are the net's (name, tag) pairs. Throws ConfigError at the line
// of a tag the layer (or, for a global key, the net) has no weight of, or
// of a key on a layer without weights.
std::vector<std::pair<std::string, ParamKwargs>> LayerUpdaterSettings(
    const CheckedConfig& checked,
    const std::vector<std::pair<std::string, std::string>>& weights);
// The ConfigError for an OptimError of weight `weight`'s own settings: at
// the line of the key it names (the weight's layer's, else a global tagged
// one), else as UpdaterConfigError.
ConfigError LayerUpdaterSettingsError(const TrainConfig& config,
                                      const std::string& weight,
                                      const optim::OptimError& error);
// The ConfigError for an OptimError of the updater, at the line of its key.
ConfigError UpdaterConfigError(const TrainConfig& config,
                               const optim::OptimError& error);

}  // namespace internal

template <typename xpu>
BuiltNet<xpu> BuildNet(const CheckedConfig& checked,
                       const std::vector<Shape<4>>& input_shapes,
                       bool with_updater, const NetSplit<xpu>& split) {
  BuiltNet<xpu> built;
  built.net = std::make_unique<BasicNetwork<xpu>>(
      checked.config, checked.schema, input_shapes,
      BasicNetwork<xpu>::kDeviceMemory, split);
  if (!with_updater) return built;
  if (!built.net->has_loss()) internal::ThrowNoLossLayer(checked.config);
  const ParamKwargs kwargs = internal::UpdaterKwargs(checked);
  try {
    built.updater =
        optim::CreateUpdater<xpu, float>(checked.param.updater, kwargs);
    for (const auto& weight : built.net->Weights()) {
      built.updater->AddWeight(weight);
    }
  } catch (const optim::OptimError& e) {
    throw internal::UpdaterConfigError(checked.config, e);
  }
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto& weight : built.net->Weights()) {
    names.emplace_back(weight.name, weight.tag);
  }
  for (const auto& [name, own] :
       internal::LayerUpdaterSettings(checked, names)) {
    try {
      built.updater->SetWeightSettings(name, own);
    } catch (const optim::OptimError& e) {
      throw internal::LayerUpdaterSettingsError(checked.config, name, e);
    }
  }
  return built;
}

template <typename xpu>
NetWithoutDataOn<xpu> BuildNetWithoutDataOn(const CheckedConfig& checked) {
  const std::vector<int> metric_nodes = CheckMetrics(checked, std::nullopt);
  BuiltNet<xpu> built = BuildNet<xpu>(checked, ConfiguredInputShapes(checked),
                                      IsTraining(checked.param));
  const BasicNetwork<xpu>& net = *built.net;
  CheckMetricColumns(checked, metric_nodes, ConfiguredLabelWidth(checked),
                     [&](int node) {
                       return node < 0 ? net.Output().size(1)
                                       : net.NodeData(node)[0].shape_.Size();
                     });
  built.net->InitWeights(checked.param.seed);
  NetWithoutDataOn<xpu> result;
  result.config = checked.config;
  result.param = checked.param;
  result.notices = checked.notices;
  result.net = std::move(built.net);
  result.updater = std::move(built.updater);
  return result;
}

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_NET_SETUP_H_
