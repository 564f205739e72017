#include "train/trainer_param.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "param/param_error.h"

namespace umbra {
namespace train {

const char* TaskName(int task) {
  switch (task) {
    case kTaskTrain:
      return "train";
    case kTaskFinetune:
      return "finetune";
    case kTaskPred:
      return "pred";
    case kTaskExtract:
      return "extract";
    case kTaskEval:
      return "eval";
    case kTaskExport:
      return "export";
    case kTaskPredRaw:
      return "pred_raw";
    case kTaskGetWeight:
      return "get_weight";
  }
  return "?";
}

UMBRA_REGISTER_PARAMETER(TrainerParam);

namespace {

[[noreturn]] void Fail(const ConfigEntry& entry, const std::string& detail) {
  throw entry.Error(detail);
}

// cxxnet read update_period under a loss layer too: there it sets the
// trainer's when no global line does, and every such line must agree. (A
// value that is no count is the layer's own error, found when it is built.)
void ReadLayerUpdatePeriods(const TrainConfig& config, TrainerParam* param) {
  const ConfigEntry* first = config.FindGlobal("update_period");
  for (const LayerDeclaration& layer : config.net.layers) {
    for (const ConfigEntry& entry : layer.settings) {
      int period = 0;
      if (entry.key != "update_period" || entry.is_default() ||
          !absl::SimpleAtoi(entry.value, &period) || period < 1) {
        continue;
      }
      if (first == nullptr) {
        param->update_period = period;
        first = &entry;
      } else if (period != param->update_period) {
        Fail(entry, absl::StrCat("update_period = ", period, " here but ",
                                 param->update_period, " at ",
                                 first->location.ToString(),
                                 ": the net has one update period"));
      }
    }
  }
}

// What `entry.key` holds between "<name>[" and the `close` that ends it;
// fails with the expected `form` otherwise.
absl::string_view IndexOf(const ConfigEntry& entry, absl::string_view name,
                          char close, absl::string_view form) {
  absl::string_view index = entry.key;
  index.remove_prefix(name.size() + 1);
  if (index.empty() || index.back() != close) {
    Fail(entry, absl::StrCat("key '", entry.key, "': expected ", form));
  }
  index.remove_suffix(1);
  return index;
}

// Comma-separated whole numbers of at least `lowest`; false for anything
// else.
bool ParseInts(absl::string_view text, int lowest, std::vector<int>* out) {
  out->clear();
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int value = 0;
    if (!absl::SimpleAtoi(part, &value) || value < lowest) return false;
    out->push_back(value);
  }
  return true;
}

MetricSpec ParseMetric(const ConfigEntry& entry) {
  MetricSpec spec;
  spec.name = entry.value;
  spec.entry = entry;
  if (entry.key == "metric") return spec;
  constexpr absl::string_view kForm =
      "metric[FIELD,NODE] (a label field and a node of the net) or "
      "metric[FIELD]";
  const std::vector<std::string> parts =
      absl::StrSplit(IndexOf(entry, "metric", ']', kForm), ',');
  for (const std::string& part : parts) {
    if (part.empty() || parts.size() > 2) {
      Fail(entry, absl::StrCat("key '", entry.key, "': expected ", kForm));
    }
  }
  spec.field = parts[0];
  if (parts.size() == 2) spec.node = parts[1];
  return spec;
}

LabelField ParseLabelField(const ConfigEntry& entry) {
  constexpr absl::string_view kForm =
      "label_vec[BEGIN,END) with label columns 0 <= BEGIN < END, e.g. "
      "label_vec[1,3)";
  std::vector<int> range;
  if (!ParseInts(IndexOf(entry, "label_vec", ')', kForm), 0, &range) ||
      range.size() != 2 || range[0] >= range[1]) {
    Fail(entry, absl::StrCat("key '", entry.key, "': expected ", kForm));
  }
  if (entry.value.empty() || entry.value == "label") {
    Fail(entry, absl::StrCat("key '", entry.key,
                             "': expected the name of a new label field, got "
                             "'",
                             entry.value,
                             "'; 'label' always names every label column"));
  }
  return LabelField{entry.value, range[0], range[1], entry};
}

// Sets extra_data_shapes[I - 1] from `extra_data_shape[I] = C,H,W`.
void ParseExtraShape(const ConfigEntry& entry, TrainerParam* param) {
  const std::string form =
      param->extra_data_num == 0
          ? std::string(
                "extra_data_num = N before it (there are no extra "
                "inputs)")
          : absl::StrCat("extra_data_shape[I] with I in 1..",
                         param->extra_data_num,
                         " (extra_data_num), for node in_I");
  int input = 0;
  if (!absl::SimpleAtoi(IndexOf(entry, "extra_data_shape", ']', form),
                        &input) ||
      input < 1 || input > param->extra_data_num) {
    Fail(entry, absl::StrCat("key '", entry.key, "': expected ", form));
  }
  std::vector<int> shape;
  if (!ParseInts(entry.value, 1, &shape) || shape.size() != 3) {
    Fail(entry, absl::StrCat("key '", entry.key,
                             "': expected the shape of node in_", input,
                             " as channel,height,width (three whole numbers "
                             ">= 1), got '",
                             entry.value, "'"));
  }
  param->extra_data_shapes[input - 1] = shape;
}

}  // namespace

TrainerParam ReadTrainerParam(const TrainConfig& config) {
  std::set<std::string> keys;
  for (const ParamFieldInfo& field : TrainerParam::Fields()) {
    keys.insert(field.name);
  }
  keys.insert("continue");
  keys.insert("extract_node");
  std::vector<ConfigEntry> entries;
  std::vector<const ConfigEntry*> indexed;
  for (const ConfigEntry& entry : config.globals) {
    const std::string name = IndexedKeyName(entry.key);
    const std::vector<std::string>& indexed_keys = TrainerIndexedKeys();
    if (std::find(indexed_keys.begin(), indexed_keys.end(), name) !=
        indexed_keys.end()) {
      if (!entry.is_default()) indexed.push_back(&entry);
    } else if (keys.count(entry.key) != 0) {
      entries.push_back(entry);
      if (entry.key == "metric" && !entry.is_default()) {
        indexed.push_back(&entry);
      }
    }
  }
  TrainerParam param;
  try {
    param.Init(ToParamKwargs(entries));
  } catch (const ParamError& e) {
    ConfigEntry fallback;
    fallback.location = SourceLocation::CommandLine(1);
    if (!config.globals.empty()) fallback = config.globals.front();
    throw ConfigErrorFromParamError(e, entries, fallback, "global settings");
  }
  param.extra_data_shapes.assign(param.extra_data_num, {});
  for (const ConfigEntry* entry : indexed) {
    const std::string name = IndexedKeyName(entry->key);
    if (entry->key == "metric" || name == "metric") {
      param.metrics.push_back(ParseMetric(*entry));
    } else if (name == "extra_data_shape") {
      ParseExtraShape(*entry, &param);
    } else {
      LabelField field = ParseLabelField(*entry);
      bool replaced = false;
      for (LabelField& earlier : param.label_fields) {
        if (earlier.entry.key == entry->key) {
          earlier = field;  // the same key again: the last wins
          replaced = true;
        } else if (earlier.name == field.name) {
          Fail(*entry, absl::StrCat("label field '", field.name,
                                    "' is already columns ", earlier.begin,
                                    " to ", earlier.end - 1, " (line ",
                                    earlier.entry.location.line,
                                    "); give this one another name"));
        }
      }
      if (!replaced) param.label_fields.push_back(std::move(field));
    }
  }
  ReadLayerUpdatePeriods(config, &param);
  if (param.task == kTaskPredRaw) {
    param.task = kTaskPred;
    param.output_prob = true;
  }
  if (param.metrics.empty()) {
    MetricSpec error;
    error.name = "error";
    param.metrics.push_back(error);
  }
  return param;
}

}  // namespace train
}  // namespace umbra
