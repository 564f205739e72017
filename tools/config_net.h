// Builds the net a config describes without reading any data: the config
// checks the trainer makes before it starts (every key, the trainer's
// settings, the device, the metrics, the updater and its keys) and the net
// for batches of `batch_size` instances of `input_shape`, both of which
// the config (or an override) must then set. `check` and `time` use it.
//
// Example:
//
//   ConfigNet built = BuildConfigNet("mnist.conf", {"batch_size=32"});
//   std::cout << built.net->Summary();
//   for (auto& t : built.updater->StateTensors()) ...
//
// Contracts: throws what the trainer would for the same config
// (ConfigError at file:line, naming the key) and a ConfigError for a
// missing batch_size or input_shape that says how to set them. Leaves the
// device set up (thread count) for the caller's passes. Weights are
// initialised from the config's seed.
#ifndef UMBRA_TOOLS_CONFIG_NET_H_
#define UMBRA_TOOLS_CONFIG_NET_H_

#include <memory>
#include <string>
#include <vector>

#include "train/config.h"
#include "train/network.h"
#include "train/optim/updater.h"
#include "train/trainer_param.h"

namespace umbra {
namespace tools {

struct ConfigNet {
  train::TrainConfig config;
  train::TrainerParam param;
  std::unique_ptr<train::Network> net;
  // The configured updater holding every weight of `net`.
  std::unique_ptr<optim::Updater<cpu, float>> updater;
};

// `overrides` are `key=value` arguments, as after the trainer's config.
ConfigNet BuildConfigNet(const std::string& path,
                         const std::vector<std::string>& overrides);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CONFIG_NET_H_
