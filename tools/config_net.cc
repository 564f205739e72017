#include "tools/config_net.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "train/device.h"
#include "train/optim/metric.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_schema.h"

namespace umbra {
namespace tools {
namespace {

using train::ConfigEntry;
using train::ConfigError;
using train::TrainConfig;

// An error about global `key`, at the line that set it last; for a key
// that is not set, at the first layer (the net that needs it).
ConfigError GlobalError(const TrainConfig& config, const std::string& key,
                        const std::string& detail) {
  const ConfigEntry* entry = nullptr;
  for (const ConfigEntry& e : config.globals) {
    if (e.key == key) entry = &e;
  }
  if (entry == nullptr && !config.net.layers.empty()) {
    entry = &config.net.layers.front().declaration;
  }
  return ConfigError(
      entry != nullptr ? entry->location : train::SourceLocation(), key,
      detail);
}

// (batch_size, channel, height, width) from the global keys.
Shape<4> InputShape(const TrainConfig& config,
                    const train::TrainerParam& param) {
  const std::string how =
      "the net is built without data, so set batch_size and input_shape "
      "(channel,height,width) globally or as overrides, e.g. batch_size=64 "
      "input_shape=1,28,28";
  if (!param.batch_size) {
    throw GlobalError(config, "batch_size", "batch_size is not set: " + how);
  }
  if (param.input_shape.size() != 3) {
    throw GlobalError(
        config, "input_shape",
        param.input_shape.empty()
            ? "input_shape is not set: " + how
            : absl::StrCat("input_shape has ", param.input_shape.size(),
                           " numbers; write channel,height,width"));
  }
  return Shape4(*param.batch_size, param.input_shape[0], param.input_shape[1],
                param.input_shape[2]);
}

std::unique_ptr<optim::Updater<cpu, float>> MakeUpdater(
    const TrainConfig& config, const train::TrainerParam& param,
    train::Network* net) {
  std::vector<std::string> keys;
  try {
    keys = optim::UpdaterKeys(param.updater);
  } catch (const optim::OptimError& e) {
    throw GlobalError(config, "updater", e.what());
  }
  std::vector<ConfigEntry> entries;
  for (const ConfigEntry& entry : config.globals) {
    for (const std::string& key : keys) {
      if (entry.key == key) entries.push_back(entry);
    }
  }
  try {
    auto updater = optim::CreateUpdater<cpu, float>(
        param.updater, train::ToParamKwargs(entries));
    for (const auto& weight : net->Weights()) updater->AddWeight(weight);
    return updater;
  } catch (const optim::OptimError& e) {
    throw GlobalError(config, e.key().empty() ? "updater" : e.key(), e.what());
  }
}

}  // namespace

ConfigNet BuildConfigNet(const std::string& path,
                         const std::vector<std::string>& overrides) {
  ConfigNet built;
  built.config = train::LoadTrainConfig(path, overrides);
  const TrainConfig& config = built.config;
  const train::KeySchema schema = train::MakeTrainerSchema();
  train::ValidateTrainConfig(config, schema);
  built.param = train::ReadTrainerParam(config);
  try {
    train::SetUpDevice(train::ParseDevice(built.param.dev),
                       built.param.nthread);
  } catch (const train::DeviceError& e) {
    throw GlobalError(config, "dev", e.what());
  }
  try {
    for (const train::MetricSpec& metric : built.param.metrics) {
      optim::CreateMetric(metric.name);
    }
  } catch (const optim::OptimError& e) {
    throw GlobalError(config, "metric", e.what());
  }
  built.net = std::make_unique<train::Network>(
      config, schema, std::vector<Shape<4>>{InputShape(config, built.param)});
  built.net->InitWeights(built.param.seed);
  built.updater = MakeUpdater(config, built.param, built.net.get());
  return built;
}

}  // namespace tools
}  // namespace umbra
