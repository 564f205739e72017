#include "train/trainer_param.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "param/param_error.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(TrainerParam);

TrainerParam ReadTrainerParam(const TrainConfig& config) {
  std::set<std::string> keys;
  for (const ParamFieldInfo& field : TrainerParam::__FIELDS__()) {
    keys.insert(field.name);
  }
  keys.insert("continue");
  keys.insert("extract_node");
  std::vector<ConfigEntry> entries;
  std::vector<std::string> metrics;
  for (const ConfigEntry& entry : config.globals) {
    if (keys.count(entry.key) == 0) continue;
    entries.push_back(entry);
    if (entry.key == "metric" &&
        !(entry.value == "default" && !entry.quoted_value)) {
      metrics.push_back(entry.value);
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
  param.metric_list =
      metrics.empty() ? std::vector<std::string>{"error"} : std::move(metrics);
  return param;
}

}  // namespace train
}  // namespace umbra
