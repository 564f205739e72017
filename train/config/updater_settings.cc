#include "train/config/updater_settings.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/match.h"

namespace umbra {
namespace train {
namespace {

bool Contains(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// Whether `key` (perhaps tagged) is one of `layer_keys`.
bool IsLayerKey(const std::string& key,
                const std::vector<std::string>& layer_keys,
                const ConfigSchema& schema) {
  return Contains(layer_keys, key) ||
         Contains(layer_keys, SplitWeightTag(key, schema.WeightTags()).second);
}

// Whether `key`, not a layer key, sets an updater key for some weights:
// untagged only where `untagged_too` (inside a layer).
bool IsUpdaterKey(const std::string& key, bool untagged_too,
                  const std::vector<std::string>& weight_keys) {
  const std::string tag = UpdaterSettingTag(key);
  if (tag.empty() && !untagged_too) return false;
  const std::string rest = UpdaterSettingKey(key);
  return absl::StartsWith(rest, "lr:") || Contains(weight_keys, rest);
}

// Moves the entries of `from` for which `moves` holds to the end of `to`.
template <typename Moves>
void MoveEntries(std::vector<ConfigEntry>* from, std::vector<ConfigEntry>* to,
                 Moves moves) {
  std::vector<ConfigEntry> kept;
  for (ConfigEntry& entry : *from) {
    (moves(entry.key) ? *to : kept).push_back(std::move(entry));
  }
  *from = std::move(kept);
}

}  // namespace

std::vector<const std::vector<ConfigEntry>*> UpdaterEntryLists(
    const TrainConfig& config) {
  std::vector<const std::vector<ConfigEntry>*> lists = {
      &config.globals, &config.tagged_updater_settings};
  for (const LayerDeclaration& layer : config.net.layers) {
    lists.push_back(&layer.settings);
    lists.push_back(&layer.updater_settings);
  }
  return lists;
}

std::string UpdaterSettingTag(const std::string& key) {
  const std::size_t colon = key.find(':');
  if (colon == std::string::npos || absl::StartsWith(key, "lr:")) return "";
  return key.substr(0, colon);
}

std::string UpdaterSettingKey(const std::string& key) {
  const std::string tag = UpdaterSettingTag(key);
  return tag.empty() ? key : key.substr(tag.size() + 1);
}

void SeparateUpdaterSettings(TrainConfig* config, const ConfigSchema& schema) {
  const std::vector<std::string> weight_keys = schema.WeightUpdaterKeys();
  for (LayerDeclaration& layer : config->net.layers) {
    const std::optional<std::vector<std::string>> layer_keys =
        schema.LayerKeys(layer.type);
    if (!layer_keys) continue;
    MoveEntries(&layer.settings, &layer.updater_settings,
                [&](const std::string& key) {
                  return !IsLayerKey(key, *layer_keys, schema) &&
                         IsUpdaterKey(key, /*untagged_too=*/true, weight_keys);
                });
  }
  std::vector<std::string> every_layer_key;
  for (const std::string& type : schema.LayerTypes()) {
    const std::vector<std::string> keys = *schema.LayerKeys(type);
    every_layer_key.insert(every_layer_key.end(), keys.begin(), keys.end());
  }
  MoveEntries(&config->globals, &config->tagged_updater_settings,
              [&](const std::string& key) {
                return !IsLayerKey(key, every_layer_key, schema) &&
                       IsUpdaterKey(key, /*untagged_too=*/false, weight_keys);
              });
}

}  // namespace train
}  // namespace umbra
