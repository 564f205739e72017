// The updater keys a config gives some weights only, as cxxnet's
// per-weight updaters read them: written inside a layer (`lr:step`,
// `beta1`, `momentum_schedule`, `bias:epsilon`) they are that layer's
// weights' own; written globally after a weight tag (`bias:lr:step`,
// `wmat:beta1`) they are every weight's with that tag. The trainer applies
// them with Updater::SetWeightSettings.
//
// Example (CheckConfig, before ValidateTrainConfig):
//
//   SeparateUpdaterSettings(&config, schema);
//   // layer.settings keeps `nhidden`, `wmat:lr`, `momentum` (the layer's
//   // keys); layer.updater_settings gets `lr:step`, `bias:beta1`.
#ifndef UMBRA_TRAIN_CONFIG_UPDATER_SETTINGS_H_
#define UMBRA_TRAIN_CONFIG_UPDATER_SETTINGS_H_

#include <string>
#include <vector>

#include "train/config/config_schema.h"
#include "train/config/train_config.h"

namespace umbra {
namespace train {

// Moves each layer's updater entries from LayerDeclaration::settings to
// updater_settings, and the global tagged ones from TrainConfig::globals to
// tagged_updater_settings, in order. An entry is an updater entry when its
// key is not a key of the layer type (of any layer type, for a global one)
// and it is, perhaps after a weight tag, a schedule key (`lr:...`, so that
// a misspelt one is named by the updater) or one of
// schema.WeightUpdaterKeys(). A layer of an unknown type keeps its
// settings (ValidateTrainConfig names the type); a share[...] layer has
// none (the parser refuses them).
void SeparateUpdaterSettings(TrainConfig* config, const ConfigSchema& schema);

// Every list of `config` whose entries may set an updater key: the global
// entries, the global tagged updater entries, and each layer's settings and
// updater settings, in that order.
std::vector<const std::vector<ConfigEntry>*> UpdaterEntryLists(
    const TrainConfig& config);

// The weight tag of an updater entry's key: "bias" for `bias:lr:step`,
// "" for `lr:step` or `beta1`.
std::string UpdaterSettingTag(const std::string& key);
// The key without its weight tag: `lr:step` for `bias:lr:step`.
std::string UpdaterSettingKey(const std::string& key);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_UPDATER_SETTINGS_H_
