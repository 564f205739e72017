// The net a config describes, built without reading any data, for `check`
// and `time`: train::BuildNetWithoutData on a config file and its
// overrides, so the tools accept and refuse exactly what the trainer does.
//
// Example:
//
//   ConfigNet built = BuildConfigNet("mnist.conf", {"batch_size=32"});
//   std::cout << built.net->Summary();
//   if (built.updater) for (auto& t : built.updater->StateTensors()) ...
//
//   // On the device the config names (`time`):
//   train::CheckedConfig checked = CheckConfigFile("mnist.conf", {});
//   train::NetWithoutDataOn<gpu> on_gpu =
//       train::BuildNetWithoutDataOn<gpu>(checked);
//
// Contracts: as train::BuildNetWithoutData (train/net_setup.h): the
// trainer's ConfigErrors at file:line, batch_size, input_shape and every
// extra_data_shape[I] required, weights initialised from the config's
// seed, the updater made when the task trains, the device left set up.
#ifndef UMBRA_TOOLS_CONFIG_NET_H_
#define UMBRA_TOOLS_CONFIG_NET_H_

#include <string>
#include <vector>

#include "train/net_setup.h"

namespace umbra {
namespace tools {

using ConfigNet = train::NetWithoutData;

// `overrides` are `key=value` arguments, as after the trainer's config.
// The net is on the cpu whatever `dev` says.
ConfigNet BuildConfigNet(const std::string& path,
                         const std::vector<std::string>& overrides);

// The trainer's checks of a config file and its overrides (train::
// CheckConfig), with the device `dev` names set up.
train::CheckedConfig CheckConfigFile(const std::string& path,
                                     const std::vector<std::string>& overrides);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CONFIG_NET_H_
