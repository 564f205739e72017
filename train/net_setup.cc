#include "train/net_setup.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "layers/layer_registry.h"
#include "param/edit_distance.h"
#include "param/quote.h"
#include "train/config/config_schema.h"
#include "train/config/updater_settings.h"
#include "train/data/iterator_chain.h"
#include "train/device.h"
#include "train/metrics/metric.h"
#include "train/net/checkpoint.h"
#include "train/optim/optim_error.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace train {
namespace {

// An error at a metric's line, or at `metric` for the default metric.
ConfigError MetricLineError(const TrainConfig& config, const MetricSpec& spec,
                            const std::string& detail) {
  if (spec.entry.key.empty()) return GlobalError(config, "metric", detail);
  return spec.entry.Error(detail);
}

// Notices for the updater keys that the config's updater does not read
// (`momentum` with adam, globally or in a layer, perhaps after a weight
// tag): cxxnet ignored them too, umbra says so.
void AddUnreadUpdaterKeyNotices(CheckedConfig* checked) {
  const std::vector<std::string> types = optim::UpdaterRegistry::List();
  if (std::find(types.begin(), types.end(), checked->param.updater) ==
      types.end()) {
    return;  // BuildNet names the unknown updater
  }
  std::vector<ConfigNotice> notices;
  for (const std::vector<ConfigEntry>* entries :
       UpdaterEntryLists(checked->config)) {
    for (const ConfigEntry& entry : *entries) {
      const std::vector<std::string> readers =
          internal::OtherUpdatersReading(entry.key, checked->param.updater);
      if (readers.empty()) continue;
      notices.push_back(
          {entry.location, entry.key,
           absl::StrCat("'", entry.key, "' has no effect with updater = ",
                        checked->param.updater, " (",
                        absl::StrJoin(readers, " and "), " read it)")});
    }
  }
  std::stable_sort(notices.begin(), notices.end(), InFileOrder);
  checked->notices.insert(checked->notices.end(), notices.begin(),
                          notices.end());
}

}  // namespace

CheckedConfig CheckConfig(TrainConfig config, LocalRanks local) {
  CheckedConfig checked;
  checked.config = std::move(config);
  checked.notices = ReadCxxnetForms(&checked.config);
  checked.schema = MakeTrainerSchema();
  SeparateUpdaterSettings(&checked.config, checked.schema);
  ValidateTrainConfig(checked.config, checked.schema);
  for (ConfigNotice& warning : AdamBetaWarnings(checked.config)) {
    checked.notices.push_back(std::move(warning));
  }
  checked.param = ReadTrainerParam(checked.config);
  AddUnreadUpdaterKeyNotices(&checked);
  try {
    SetUpDevice(ParseDevice(checked.param.dev), checked.param.nthread, local);
  } catch (const DeviceError& e) {
    throw GlobalError(checked.config, "dev", e.what());
  } catch (const std::system_error& e) {
    throw GlobalError(
        checked.config, "nthread",
        absl::StrCat("nthread = ", checked.param.nthread,
                     ": cannot start the CPU threads: ", e.what()));
  }
  return checked;
}

bool IsTraining(const TrainerParam& param) {
  return param.task == kTaskTrain || param.task == kTaskFinetune;
}

int FindExtractNode(const NetConfig& net, const std::string& name) {
  int from_end = 0;
  absl::string_view rest = name;
  if (absl::ConsumePrefix(&rest, "top[-") && absl::ConsumeSuffix(&rest, "]") &&
      absl::SimpleAtoi(rest, &from_end)) {
    const int nodes = static_cast<int>(net.nodes.size());
    return from_end >= 1 && from_end <= nodes ? nodes - from_end : -1;
  }
  return net.FindNode(name);
}

// A task's output files must be new (no task replaces a file): an error at
// `line`, or else at `key`'s line.
void RefuseExistingOutputs(const TrainConfig& config, const std::string& key,
                           const ConfigEntry* line,
                           const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    try {
      NewFile::RefuseExisting(file);
    } catch (const FileExistsError& e) {
      if (line != nullptr) throw line->Error(e.what());
      throw GlobalError(config, key, e.what());
    }
  }
}

// get_weight's keys: the layer, and new files to write.
void CheckGetWeight(const TrainConfig& config, const TrainerParam& param) {
  const std::string& layer = param.extract_layer_name;
  if (layer.empty()) {
    throw GlobalError(config, "extract_layer_name",
                      "task = get_weight needs extract_layer_name = <layer>: "
                      "the layer whose wmat weight it writes",
                      {"task"});
  }
  if (config.net.FindLayer(layer) < 0) {
    std::vector<std::string> names;
    for (const LayerDeclaration& declared : config.net.layers) {
      names.push_back(declared.name);
    }
    throw GlobalError(
        config, "extract_layer_name",
        absl::StrCat("no layer named ", QuoteShort(layer), " in the net",
                     param::UnknownNameSuggestion(layer, names, "Layers",
                                                  "the netconfig")));
  }
  if (param.weight_filename.empty()) {
    throw GlobalError(config, "weight_filename",
                      "task = get_weight needs weight_filename = <file>: "
                      "where the weight is written",
                      {"task"});
  }
  RefuseExistingOutputs(
      config, "weight_filename", nullptr,
      {param.weight_filename, param.weight_filename + ".meta"});
}

void CheckTaskData(const CheckedConfig& checked) {
  const TrainConfig& config = checked.config;
  const TrainerParam& param = checked.param;
  if (param.task == kTaskExport) return;
  if (param.task == kTaskGetWeight) return CheckGetWeight(config, param);
  for (const IteratorChain& chain : config.iterators) {
    CheckChainStages(chain);
  }
  std::vector<const IteratorChain*> chains;
  if (IsTraining(param)) {
    if (config.TrainIterator() == nullptr) {
      throw GlobalError(config, "task",
                        "training needs a `data = train` block with the "
                        "training iterator");
    }
    chains.push_back(config.TrainIterator());
  }
  if (param.task == kTaskFinetune && param.model_in.empty()) {
    throw GlobalError(config, "task",
                      "task = finetune needs model_in = <checkpoint> to "
                      "start from");
  }
  if (param.task == kTaskPred || param.task == kTaskExtract) {
    const IteratorChain* chain = config.PredIterator();
    if (chain == nullptr) {
      throw GlobalError(config, "task",
                        "task = pred and task = extract need a `pred = "
                        "FILE` block: its data, and the file to write");
    }
    // pred's file, and extract's with its .meta.
    std::vector<std::string> outputs = {chain->name};
    if (param.task == kTaskExtract) {
      const std::string& node = param.extract_node_name;
      if (node.empty()) {
        throw GlobalError(config, "extract_node_name",
                          "task = extract needs extract_node_name = <node> "
                          "(a node of the netconfig, e.g. the name after -> "
                          "in a layer line, or top[-1] for the last)",
                          {"task"});
      }
      if (FindExtractNode(config.net, node) < 0) {
        throw GlobalError(
            config, "extract_node_name",
            absl::StrCat(
                "no node named ", QuoteShort(node), " in the net",
                param::UnknownNameSuggestion(node, config.net.NamedNodes(),
                                             "Nodes", "the netconfig")),
            {"extract_node"});
      }
      outputs.push_back(chain->name + ".meta");
    }
    RefuseExistingOutputs(config, "pred", &chain->declaration, outputs);
    chains.push_back(chain);
  }
  if (IsTraining(param) || param.task == kTaskEval) {
    for (const IteratorChain* chain : config.EvalIterators()) {
      chains.push_back(chain);
    }
  }
  if (param.task == kTaskEval && config.EvalIterators().empty()) {
    throw GlobalError(config, "task",
                      "task = eval needs at least one `eval = NAME` block");
  }
  for (const IteratorChain* chain : chains) CheckIteratorFiles(config, *chain);
}

ConfigError GlobalError(const TrainConfig& config, const std::string& key,
                        const std::string& detail,
                        const std::vector<std::string>& related) {
  // The first of key and `related` that a line sets (else key: the file).
  std::string at = key;
  if (config.FindGlobal(key) == nullptr) {
    for (const std::string& other : related) {
      if (config.FindGlobal(other) != nullptr) {
        at = other;
        break;
      }
    }
  }
  return ConfigError(config.GlobalLocation(at), key, detail);
}

std::vector<int> CheckMetrics(const CheckedConfig& checked,
                              std::optional<index_t> label_width) {
  const TrainConfig& config = checked.config;
  std::vector<std::string> fields = {"label"};
  for (const LabelField& field : checked.param.label_fields) {
    if (label_width && field.end > static_cast<int>(*label_width)) {
      throw field.entry.Error(absl::StrCat(
          "label field '", field.name, "' is columns ", field.begin, " to ",
          field.end - 1, ", but the data has ", *label_width, " label column",
          *label_width == 1 ? "" : "s", " (label_width)"));
    }
    fields.push_back(field.name);
  }
  const std::vector<std::string> nodes = config.net.NamedNodes();
  std::vector<int> metric_nodes;
  std::map<std::string, const MetricSpec*> printed;
  for (const MetricSpec& spec : checked.param.metrics) {
    try {
      metrics::CreateMetric(spec.name);
    } catch (const metrics::MetricError& e) {
      throw MetricLineError(config, spec, e.what());
    }
    if (std::find(fields.begin(), fields.end(), spec.field) == fields.end()) {
      throw MetricLineError(
          config, spec,
          absl::StrCat("metric '", spec.name, "': no label field ",
                       QuoteShort(spec.field),
                       param::UnknownNameSuggestion(
                           spec.field, fields, "Fields", "the label_vec lines"),
                       " (name more with label_vec[BEGIN,END) = NAME)"));
    }
    const int node = spec.node.empty() ? -1 : config.net.FindNode(spec.node);
    if (!spec.node.empty() && node < 0) {
      throw MetricLineError(
          config, spec,
          absl::StrCat("metric '", spec.name, "': the net has no node ",
                       QuoteShort(spec.node),
                       param::UnknownNameSuggestion(spec.node, nodes, "Nodes",
                                                    "the netconfig")));
    }
    const std::string label =
        spec.field == "label" ? spec.name
                              : absl::StrCat(spec.name, "[", spec.field, "]");
    const auto [earlier, added] = printed.emplace(label, &spec);
    if (!added) {
      const ConfigEntry& first = earlier->second->entry;
      throw MetricLineError(
          config, spec,
          absl::StrCat("metric '", spec.name, "' of label field '", spec.field,
                       "' is already asked for",
                       first.key.empty()
                           ? std::string()
                           : absl::StrCat(" at line ", first.location.line),
                       "; both would print as SET-", label,
                       " (cxxnet's names leave out the node): name another "
                       "label field for the same columns with label_vec"));
    }
    metric_nodes.push_back(node);
  }
  return metric_nodes;
}

void CheckMetricColumns(const CheckedConfig& checked,
                        const std::vector<int>& metric_nodes,
                        index_t label_width,
                        const std::function<index_t(int node)>& outputs) {
  const std::vector<MetricSpec>& specs = checked.param.metrics;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const MetricSpec& spec = specs[i];
    if (spec.name != "rmse") continue;
    index_t columns = label_width;
    for (const LabelField& field : checked.param.label_fields) {
      if (field.name == spec.field) columns = field.end - field.begin;
    }
    const index_t predicted = outputs(metric_nodes[i]);
    if (predicted == columns) continue;
    throw MetricLineError(
        checked.config, spec,
        absl::StrCat(
            "metric 'rmse' compares each output with a target, but ",
            spec.node.empty()
                ? std::string("the net gives")
                : absl::StrCat("node ", QuoteShort(spec.node), " holds"),
            " ", predicted, " outputs per instance and label field '",
            spec.field, "' has ", columns, " column", columns == 1 ? "" : "s",
            predicted > 1 && columns == 1
                ? " (a class index: score a classifier with error "
                  "or logloss)"
                : ""));
  }
}

index_t ConfiguredLabelWidth(const CheckedConfig& checked) {
  const TrainConfig& config = checked.config;
  const IteratorChain* chain = config.TrainIterator();
  if (chain == nullptr && !config.iterators.empty()) {
    chain = &config.iterators.front();
  }
  if (chain == nullptr || chain->stages.empty()) return 1;
  BatchIteratorParam batch;
  batch.InitAllowUnknown(
      ToParamKwargs(IteratorSettings(config, *chain, 0, checked.schema)));
  return batch.label_width;
}

namespace internal {

void ThrowNoLossLayer(const TrainConfig& config) {
  const ConfigEntry& last = config.net.layers.back().declaration;
  throw last.Error(
      "the net has no loss layer to train with: end it with "
      "softmax, l2_loss, lp_loss or multi_logistic");
}

ParamKwargs UpdaterKwargs(const CheckedConfig& checked) {
  std::vector<std::string> keys;
  try {
    keys = optim::UpdaterKeys(checked.param.updater);
  } catch (const optim::OptimError& e) {
    throw GlobalError(checked.config, "updater", e.what());
  }
  std::vector<ConfigEntry> entries;
  for (const ConfigEntry& entry : checked.config.globals) {
    if (std::find(keys.begin(), keys.end(), entry.key) != keys.end()) {
      entries.push_back(entry);
    }
  }
  return ToParamKwargs(entries);
}

std::vector<std::string> OtherUpdatersReading(const std::string& key,
                                              const std::string& updater) {
  // Each updater key and the updaters that read it (the registry is
  // complete once main runs).
  static const std::map<std::string, std::vector<std::string>> readers = [] {
    std::map<std::string, std::vector<std::string>> map;
    for (const std::string& type : optim::UpdaterRegistry::List()) {
      for (const std::string& name : optim::UpdaterKeys(type)) {
        map[name].push_back(type);
      }
    }
    return map;
  }();
  std::string name = key;
  const std::size_t colon = key.find(':');
  if (readers.count(name) == 0 && colon != std::string::npos) {
    name = key.substr(colon + 1);  // wmat:momentum
  }
  const auto found = readers.find(name);
  if (found == readers.end() ||
      std::find(found->second.begin(), found->second.end(), updater) !=
          found->second.end()) {
    return {};
  }
  return found->second;
}

std::vector<std::pair<std::string, ParamKwargs>> LayerUpdaterSettings(
    const CheckedConfig& checked,
    const std::vector<std::pair<std::string, std::string>>& weights) {
  const TrainConfig& config = checked.config;
  // Whether an entry is for the config's updater: the others' keys have no
  // effect (AddUnreadUpdaterKeyNotices said so).
  const auto read = [&](const ConfigEntry& entry) {
    return OtherUpdatersReading(entry.key, checked.param.updater).empty();
  };
  // Whether each global tagged key reached a weight.
  std::vector<bool> used(config.tagged_updater_settings.size(), false);
  std::vector<std::pair<std::string, ParamKwargs>> settings;
  for (const LayerDeclaration& layer : config.net.layers) {
    // A share[...] layer's weights are its primary's.
    if (layer.shared_with >= 0) continue;
    const std::string prefix = layer.name + ".";
    std::vector<std::string> tags;
    for (const auto& [name, tag] : weights) {
      if (absl::StartsWith(name, prefix)) tags.push_back(tag);
    }
    if (tags.empty()) {
      if (layer.updater_settings.empty()) continue;
      const ConfigEntry& entry = layer.updater_settings.front();
      throw entry.Error(absl::StrCat(layer.Describe(), ": '", entry.key,
                                     "' is an updater key for the layer's "
                                     "weights, but it has none"));
    }
    // The weight tag `key` names, cxxnet's aliases of this type read (bias:
    // of a prelu is its slope); "" for an untagged key.
    const auto& aliases =
        layers::LayerRegistry::Get(layer.type).weight_tag_aliases;
    const auto tag_of = [&](const std::string& key) {
      std::string tag = UpdaterSettingTag(key);
      for (const auto& [cxxnet_tag, own_tag] : aliases) {
        if (tag == cxxnet_tag) tag = own_tag;
      }
      return tag;
    };
    for (const ConfigEntry& entry : layer.updater_settings) {
      const std::string tag = tag_of(entry.key);
      if (!tag.empty() &&
          std::find(tags.begin(), tags.end(), tag) == tags.end()) {
        throw entry.Error(absl::StrCat(
            layer.Describe(), ": '", entry.key, "': the layer has no weight '",
            tag, "' (its weights: ", absl::StrJoin(tags, ", "), ")"));
      }
    }
    const auto pair_of = [](const ConfigEntry& entry) {
      return std::make_pair(UpdaterSettingKey(entry.key), entry.value);
    };
    for (const std::string& tag : tags) {
      // As cxxnet's updater of the weight read them: the global keys of its
      // tag, then the layer's plain keys, then its keys of the tag.
      ParamKwargs own;
      for (std::size_t i = 0; i < config.tagged_updater_settings.size(); ++i) {
        const ConfigEntry& entry = config.tagged_updater_settings[i];
        if (tag_of(entry.key) != tag) continue;
        used[i] = true;
        if (read(entry)) own.push_back(pair_of(entry));
      }
      for (const bool tagged : {false, true}) {
        for (const ConfigEntry& entry : layer.updater_settings) {
          const std::string entry_tag = tag_of(entry.key);
          if (entry_tag.empty() != tagged && (!tagged || entry_tag == tag) &&
              read(entry)) {
            own.push_back(pair_of(entry));
          }
        }
      }
      if (!own.empty()) settings.emplace_back(prefix + tag, std::move(own));
    }
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (used[i]) continue;
    const ConfigEntry& entry = config.tagged_updater_settings[i];
    throw entry.Error(absl::StrCat("'", entry.key,
                                   "': no weight of the net has the tag '",
                                   UpdaterSettingTag(entry.key), "'"));
  }
  return settings;
}

ConfigError LayerUpdaterSettingsError(const TrainConfig& config,
                                      const std::string& weight,
                                      const optim::OptimError& error) {
  // The weight's layer's entries first, then the global tagged ones; the
  // last of each with the key set the value.
  std::vector<const ConfigEntry*> entries;
  for (const LayerDeclaration& layer : config.net.layers) {
    if (!absl::StartsWith(weight, layer.name + ".")) continue;
    for (auto it = layer.updater_settings.rbegin();
         it != layer.updater_settings.rend(); ++it) {
      entries.push_back(&*it);
    }
  }
  for (auto it = config.tagged_updater_settings.rbegin();
       it != config.tagged_updater_settings.rend(); ++it) {
    entries.push_back(&*it);
  }
  for (const ConfigEntry* entry : entries) {
    if (!error.key().empty() && UpdaterSettingKey(entry->key) == error.key()) {
      return entry->Error(error.what());
    }
  }
  return UpdaterConfigError(config, error);
}

ConfigError UpdaterConfigError(const TrainConfig& config,
                               const optim::OptimError& error) {
  // A schedule's missing key is reported at the lr:schedule line.
  return GlobalError(config, error.key().empty() ? "updater" : error.key(),
                     error.what(), {"lr:schedule", "updater"});
}

}  // namespace internal

std::vector<Shape<4>> ConfiguredInputShapes(const CheckedConfig& checked) {
  const TrainConfig& config = checked.config;
  const TrainerParam& param = checked.param;
  // Where a missing key is reported: the first layer, which needs it.
  auto missing = [&](const std::string& key, const std::string& detail) {
    if (config.FindGlobal(key) != nullptr || config.net.layers.empty()) {
      return GlobalError(config, key, detail);
    }
    return ConfigError(config.net.layers.front().declaration.location, key,
                       detail);
  };
  const std::string how =
      "the net is built without data, so set batch_size and input_shape "
      "(channel,height,width) globally or as overrides, e.g. batch_size=64 "
      "input_shape=1,28,28";
  if (!param.batch_size) {
    throw missing("batch_size", "batch_size is not set: " + how);
  }
  if (param.input_shape.size() != 3) {
    throw missing(
        "input_shape",
        param.input_shape.empty()
            ? "input_shape is not set: " + how
            : absl::StrCat("input_shape has ", param.input_shape.size(),
                           " numbers; write channel,height,width"));
  }
  const index_t batch = *param.batch_size;
  std::vector<Shape<4>> shapes = {Shape4(
      batch, param.input_shape[0], param.input_shape[1], param.input_shape[2])};
  for (int k = 0; k < param.extra_data_num; ++k) {
    const std::vector<int>& shape = param.extra_data_shapes[k];
    if (shape.empty()) {
      throw missing(
          "extra_data_num",
          absl::StrCat("extra_data_shape[", k + 1,
                       "] is not set: the net is built without data, so set "
                       "the shape of every extra input node in_I as "
                       "extra_data_shape[I] = channel,height,width"));
    }
    shapes.push_back(Shape4(batch, shape[0], shape[1], shape[2]));
  }
  return shapes;
}

NetWithoutData BuildNetWithoutData(TrainConfig config) {
  return BuildNetWithoutDataOn<cpu>(CheckConfig(std::move(config)));
}

}  // namespace train
}  // namespace umbra
