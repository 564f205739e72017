#include "train/config/config_schema.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "param/edit_distance.h"
#include "param/field_info.h"
#include "param/param_error.h"
#include "param/quote.h"
#include "param/registry.h"

namespace umbra {
namespace train {
namespace {

bool Contains(const std::vector<std::string>& keys, absl::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::vector<std::string> Sorted(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// The '_'-separated parts of `word`, sorted: train_eval and eval_train
// have the same.
std::vector<std::string> SortedParts(absl::string_view word) {
  std::vector<std::string> parts = absl::StrSplit(word, '_');
  std::sort(parts.begin(), parts.end());
  return parts;
}

// `hint`, or "." to end the sentence when there is none.
std::string OrPeriod(std::string hint) {
  return hint.empty() ? std::string(".") : hint;
}

// `key` for a message: cut short when it is longer than any real key.
std::string KeyForMessage(absl::string_view key) {
  constexpr std::size_t kMax = 80;
  if (key.size() <= kMax) return std::string(key);
  return absl::StrCat(key.substr(0, kMax), "... (", key.size(), " characters)");
}

std::string ListOf(const std::vector<std::string>& names) {
  return names.empty() ? std::string("(none)") : absl::StrJoin(names, ", ");
}

// The keys of every layer type and every iterator type.
struct AllKeys {
  std::vector<std::string> layer;
  std::vector<std::string> iterator;
};

AllKeys CollectKeys(const ConfigSchema& schema) {
  AllKeys all;
  for (const std::string& type : schema.LayerTypes()) {
    for (std::string& key :
         schema.LayerKeys(type).value_or(std::vector<std::string>())) {
      all.layer.push_back(std::move(key));
    }
  }
  for (const std::string& type : schema.IteratorTypes()) {
    for (std::string& key :
         schema.IteratorKeys(type).value_or(std::vector<std::string>())) {
      all.iterator.push_back(std::move(key));
    }
  }
  all.layer = Sorted(std::move(all.layer));
  all.iterator = Sorted(std::move(all.iterator));
  return all;
}

// Where `key`, unknown in a layer (`in_layer`) or an iterator block, belongs
// when another part of the config declares it: "; 'dev' is a global
// setting: ...". "" when no other part does.
std::string WhereKeyBelongs(absl::string_view key, bool in_layer,
                            const ConfigSchema& schema, const AllKeys& all) {
  if (Contains(schema.GlobalKeys(), key)) {
    return absl::StrCat("; '", key,
                        "' is a global setting: put it outside netconfig and "
                        "the data/eval/pred blocks.");
  }
  if (!in_layer && Contains(all.layer, key)) {
    return absl::StrCat("; '", key,
                        "' is a layer setting: put it under its layer line "
                        "in netconfig, or outside every block for all "
                        "layers.");
  }
  std::vector<std::string> owners;
  for (const std::string& type : schema.IteratorTypes()) {
    if (Contains(schema.IteratorKeys(type).value_or(std::vector<std::string>()),
                 key)) {
      owners.push_back(type);
    }
  }
  if (owners.empty()) return "";
  return absl::StrCat("; '", key, "' is a setting of iterator ",
                      absl::StrJoin(owners, " or "),
                      in_layer ? ": put it in a data/eval/pred block after "
                                 "iter = "
                               : ": put it after iter = ",
                      owners.front(), ".");
}

// Whether `prefix` is a weight tag: one of `tags`, or (for a schema whose
// layers list their tagged keys themselves) the tag of a valid key whose
// untagged form is valid too (bias:wd).
bool IsWeightTag(absl::string_view prefix,
                 const std::vector<std::string>& valid,
                 const std::vector<std::string>& tags) {
  if (Contains(tags, prefix)) return true;
  const std::string start = absl::StrCat(prefix, ":");
  for (const std::string& key : valid) {
    if (absl::StartsWith(key, start) &&
        Contains(valid, absl::string_view(key).substr(start.size()))) {
      return true;
    }
  }
  return false;
}

// The hint for an unknown `key` that is a valid key after a prefix: a
// weight tag before a key that is no layer's (`bias:batch_size`), or
// a prefix that is no tag (`lr:eta`); "" otherwise. Checked before "did you
// mean", which would point from such a key to a layer's (bias:eta).
std::string PrefixHint(absl::string_view key,
                       const std::vector<std::string>& valid,
                       const std::vector<std::string>& tags) {
  const std::size_t colon = key.find(':');
  if (colon == absl::string_view::npos ||
      !Contains(valid, key.substr(colon + 1))) {
    return "";
  }
  const absl::string_view prefix = key.substr(0, colon);
  const absl::string_view rest = key.substr(colon + 1);
  if (IsWeightTag(prefix, valid, tags)) {
    return absl::StrCat("; '", rest,
                        "' is not a layer key: a weight tag goes only before "
                        "a layer's key (wmat:lr, bias:wd); write '",
                        rest, "'");
  }
  return absl::StrCat("; '", prefix, ":' is not a weight tag",
                      tags.empty()
                          ? std::string()
                          : absl::StrCat(" (tags: ", ListOf(tags), ")"),
                      "; did you mean '", rest, "'?");
}

// Throws the unknown-key error for `entry` (whose key, tag removed, is
// `key`) in `section`, with `valid` the keys accepted there. `placement`
// (WhereKeyBelongs) replaces the closest-key hint when it is not empty.
[[noreturn]] void ThrowUnknownKey(const ConfigEntry& entry,
                                  absl::string_view key,
                                  absl::string_view section,
                                  const std::vector<std::string>& valid,
                                  const std::vector<std::string>& tags,
                                  const std::string& placement = "") {
  std::string hint = placement;
  if (hint.empty()) hint = PrefixHint(key, valid, tags);
  if (hint.empty()) hint = DidYouMean(key, valid);
  throw entry.Error(absl::StrCat("unknown key '", KeyForMessage(entry.key),
                                 "' in ", section, OrPeriod(hint), " ",
                                 param::NameList(key, valid, "Valid keys")));
}

// Checks a layer's type; returns its keys.
std::vector<std::string> CheckLayerType(const LayerDeclaration& layer,
                                        const ConfigSchema& schema) {
  std::optional<std::vector<std::string>> keys = schema.LayerKeys(layer.type);
  if (!keys) {
    const std::vector<std::string> types = schema.LayerTypes();
    throw layer.declaration.Error(absl::StrCat(
        QuoteShort(layer.declaration.ToString()), ": unknown layer type ",
        QuoteShort(layer.type), OrPeriod(DidYouMean(layer.type, types)), " ",
        param::NameList(layer.type, types, "Known types")));
  }
  return Sorted(std::move(*keys));
}

std::vector<std::string> CheckIteratorType(const IteratorStage& stage,
                                           const ConfigSchema& schema) {
  std::optional<std::vector<std::string>> keys =
      schema.IteratorKeys(stage.type);
  if (!keys) {
    const std::vector<std::string> types = schema.IteratorTypes();
    throw stage.declaration.Error(absl::StrCat(
        "key 'iter': unknown iterator type ", QuoteShort(stage.type),
        OrPeriod(DidYouMean(stage.type, types)), " ",
        param::NameList(stage.type, types, "Known types")));
  }
  return Sorted(std::move(*keys));
}

// The layer whose type and settings apply to `layer` (the primary layer for
// share[...]).
const LayerDeclaration& Effective(const TrainConfig& config,
                                  const LayerDeclaration& layer) {
  return layer.shared_with >= 0 ? config.net.layers.at(layer.shared_with)
                                : layer;
}

// The last entry of `entries` whose key is `key`, or nullptr.
const ConfigEntry* LastWithKey(const std::vector<ConfigEntry>& entries,
                               absl::string_view key) {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->key == key) return &*it;
  }
  return nullptr;
}

// Refuses a command-line override that nothing would read: the trainer does
// not read its key, and every layer and iterator stage that does sets the
// key itself (a block's own setting wins over a global one), so the run would
// silently go on with the file's values.
void CheckOverrideIsRead(const TrainConfig& config, const ConfigSchema& schema,
                         const ConfigEntry& override) {
  if (override.is_default() || !IndexedKeyName(override.key).empty() ||
      Contains(schema.GlobalKeys(), override.key)) {
    return;
  }
  const std::string key =
      SplitWeightTag(override.key, schema.WeightTags()).second;
  std::vector<std::string> shadows;
  for (const LayerDeclaration& layer : config.net.layers) {
    // A share[...] layer is configured by the layer it shares.
    if (layer.shared_with >= 0 ||
        !Contains(
            schema.LayerKeys(layer.type).value_or(std::vector<std::string>()),
            key)) {
      continue;
    }
    const ConfigEntry* own = LastWithKey(layer.settings, override.key);
    if (own == nullptr) return;
    shadows.push_back(
        absl::StrCat(layer.Describe(), " at ", own->location.ToString()));
  }
  for (const IteratorChain& chain : config.iterators) {
    for (std::size_t i = 0; i < chain.stages.size(); ++i) {
      if (!Contains(schema.IteratorKeys(chain.stages[i].type)
                        .value_or(std::vector<std::string>()),
                    override.key)) {
        continue;
      }
      // Later stages pass their settings down to the stages they wrap.
      const ConfigEntry* own = nullptr;
      for (std::size_t j = chain.stages.size(); own == nullptr && j > i; --j) {
        own = LastWithKey(chain.stages[j - 1].settings, override.key);
      }
      if (own == nullptr) return;
      shadows.push_back(absl::StrCat(chain.Describe(), ", iterator ",
                                     chain.stages[i].type, ", at ",
                                     own->location.ToString()));
    }
  }
  if (shadows.empty()) return;  // nothing declares it: an unknown key
  throw override.Error(absl::StrCat(
      "'", override.ToString(),
      "' would change nothing: everything that reads '", override.key,
      "' sets it itself (", absl::StrJoin(shadows, "; "),
      "), and a block's own setting wins over a global one; "
      "change the file there instead"));
}

}  // namespace

std::string DidYouMean(absl::string_view word,
                       const std::vector<std::string>& candidates) {
  std::optional<std::string> match = param::ClosestMatch(word, candidates);
  if (!match && absl::StrContains(word, '_')) {
    const std::vector<std::string> parts = SortedParts(word);
    for (const std::string& candidate : candidates) {
      if (SortedParts(candidate) == parts) {
        match = candidate;
        break;
      }
    }
  }
  return match ? absl::StrCat("; did you mean '", *match, "'?") : "";
}

void KeySchema::AddGlobalKeys(const std::vector<std::string>& keys) {
  global_keys_.insert(keys.begin(), keys.end());
}

void KeySchema::AddIndexedGlobalKeys(const std::vector<std::string>& names) {
  indexed_global_keys_.insert(names.begin(), names.end());
}

void KeySchema::AddLayerType(const std::string& type,
                             const std::vector<std::string>& keys) {
  layer_keys_[type].insert(keys.begin(), keys.end());
}

void KeySchema::AddIteratorType(const std::string& type,
                                const std::vector<std::string>& keys) {
  iterator_keys_[type].insert(keys.begin(), keys.end());
}

void KeySchema::AddWeightUpdaterKeys(const std::vector<std::string>& keys) {
  weight_updater_keys_.insert(keys.begin(), keys.end());
}

void KeySchema::AddGlobalParamStructs(
    const std::vector<std::string>& struct_names) {
  for (const std::string& name : struct_names) {
    AddGlobalKeys(ParamStructKeys(name));
  }
}

void KeySchema::AddLayerParamStructs(
    const std::string& type, const std::vector<std::string>& struct_names) {
  AddLayerType(type, {});
  for (const std::string& name : struct_names) {
    AddLayerType(type, ParamStructKeys(name));
  }
}

void KeySchema::AddIteratorParamStructs(
    const std::string& type, const std::vector<std::string>& struct_names) {
  AddIteratorType(type, {});
  for (const std::string& name : struct_names) {
    AddIteratorType(type, ParamStructKeys(name));
  }
}

std::vector<std::string> KeySchema::GlobalKeys() const {
  return {global_keys_.begin(), global_keys_.end()};
}

std::vector<std::string> KeySchema::LayerTypes() const {
  std::vector<std::string> types;
  for (const auto& type : layer_keys_) types.push_back(type.first);
  return types;
}

std::optional<std::vector<std::string>> KeySchema::LayerKeys(
    absl::string_view type) const {
  const auto found = layer_keys_.find(type);
  if (found == layer_keys_.end()) return std::nullopt;
  return std::vector<std::string>(found->second.begin(), found->second.end());
}

std::vector<std::string> KeySchema::IteratorTypes() const {
  std::vector<std::string> types;
  for (const auto& type : iterator_keys_) types.push_back(type.first);
  return types;
}

std::optional<std::vector<std::string>> KeySchema::IteratorKeys(
    absl::string_view type) const {
  const auto found = iterator_keys_.find(type);
  if (found == iterator_keys_.end()) return std::nullopt;
  return std::vector<std::string>(found->second.begin(), found->second.end());
}

std::vector<std::string> ParamStructKeys(absl::string_view struct_name) {
  const ParamStructInfo info = GetParamStruct(struct_name);
  std::vector<std::string> keys;
  for (const ParamFieldInfo& field : info.fields) {
    keys.push_back(field.name);
    keys.insert(keys.end(), field.aliases.begin(), field.aliases.end());
  }
  return Sorted(std::move(keys));
}

std::string IndexedKeyName(absl::string_view key) {
  const std::size_t bracket = key.find('[');
  return bracket == absl::string_view::npos
             ? std::string()
             : std::string(key.substr(0, bracket));
}

std::pair<std::string, std::string> SplitWeightTag(
    absl::string_view key, const std::vector<std::string>& tags) {
  const std::size_t colon = key.find(':');
  if (colon != absl::string_view::npos &&
      Contains(tags, key.substr(0, colon))) {
    return {std::string(key.substr(0, colon)),
            std::string(key.substr(colon + 1))};
  }
  return {std::string(), std::string(key)};
}

void ValidateTrainConfig(const TrainConfig& config,
                         const ConfigSchema& schema) {
  const std::vector<std::string> tags = schema.WeightTags();
  // Layer types first: a wrong type makes every key of its layer look wrong.
  std::vector<std::vector<std::string>> layer_keys;
  for (const LayerDeclaration& layer : config.net.layers) {
    layer_keys.push_back(CheckLayerType(Effective(config, layer), schema));
  }
  for (const IteratorChain& chain : config.iterators) {
    for (const IteratorStage& stage : chain.stages) {
      CheckIteratorType(stage, schema);
    }
  }

  const AllKeys all = CollectKeys(schema);
  std::vector<std::string> global_valid = schema.GlobalKeys();
  global_valid.insert(global_valid.end(), all.layer.begin(), all.layer.end());
  global_valid.insert(global_valid.end(), all.iterator.begin(),
                      all.iterator.end());
  global_valid = Sorted(std::move(global_valid));
  const std::vector<std::string> indexed = schema.IndexedGlobalKeys();
  std::vector<std::string> indexed_valid;
  for (const std::string& name : indexed) {
    indexed_valid.push_back(name + "[...]");
  }
  for (const ConfigEntry& entry : config.globals) {
    const std::string name = IndexedKeyName(entry.key);
    if (!name.empty()) {
      if (Contains(indexed, name)) continue;
      const std::optional<std::string> match =
          param::ClosestMatch(name, indexed);
      throw entry.Error(absl::StrCat(
          "unknown key '", KeyForMessage(entry.key), "' in the global settings",
          match ? absl::StrCat("; did you mean '", *match,
                               entry.key.substr(name.size()), "'?")
                : std::string("."),
          " ", param::NameList(name, indexed_valid, "Keys with an index")));
    }
    const auto [tag, key] = SplitWeightTag(entry.key, tags);
    const std::vector<std::string>& valid =
        tag.empty() ? global_valid : all.layer;
    if (!Contains(valid, key)) {
      ThrowUnknownKey(entry, key,
                      tag.empty() ? "the global settings"
                                  : "the global settings (a tagged key is "
                                    "a layer key)",
                      valid, tags);
    }
  }

  for (std::size_t i = 0; i < config.net.layers.size(); ++i) {
    const LayerDeclaration& layer = config.net.layers[i];
    for (const ConfigEntry& entry : layer.settings) {
      const std::string key = SplitWeightTag(entry.key, tags).second;
      if (!Contains(layer_keys[i], key)) {
        ThrowUnknownKey(entry, key, layer.Describe(), layer_keys[i], tags,
                        WhereKeyBelongs(key, /*in_layer=*/true, schema, all));
      }
    }
  }

  for (const IteratorChain& chain : config.iterators) {
    std::vector<std::string> valid;
    for (const IteratorStage& stage : chain.stages) {
      // A stage accepts its own keys and those of the stages it wraps.
      const std::vector<std::string> own = CheckIteratorType(stage, schema);
      valid.insert(valid.end(), own.begin(), own.end());
      valid = Sorted(std::move(valid));
      for (const ConfigEntry& entry : stage.settings) {
        if (!Contains(valid, entry.key)) {
          ThrowUnknownKey(
              entry, entry.key,
              absl::StrCat(chain.Describe(), ", iterator ", stage.type), valid,
              tags,
              WhereKeyBelongs(entry.key, /*in_layer=*/false, schema, all));
        }
      }
    }
  }

  for (const ConfigEntry& entry : config.globals) {
    if (entry.location.from_command_line()) {
      CheckOverrideIsRead(config, schema, entry);
    }
  }
}

std::vector<ConfigEntry> LayerSettings(const TrainConfig& config,
                                       const LayerDeclaration& layer,
                                       const ConfigSchema& schema) {
  const LayerDeclaration& effective = Effective(config, layer);
  const std::vector<std::string> tags = schema.WeightTags();
  const std::vector<std::string> keys =
      schema.LayerKeys(effective.type).value_or(std::vector<std::string>());
  std::vector<ConfigEntry> settings;
  for (const ConfigEntry& entry : config.globals) {
    if (Contains(keys, SplitWeightTag(entry.key, tags).second)) {
      settings.push_back(entry);
    }
  }
  settings.insert(settings.end(), effective.settings.begin(),
                  effective.settings.end());
  return settings;
}

std::vector<ConfigEntry> IteratorSettings(const TrainConfig& config,
                                          const IteratorChain& chain,
                                          std::size_t stage,
                                          const ConfigSchema& schema) {
  const std::vector<std::string> keys =
      schema.IteratorKeys(chain.stages.at(stage).type)
          .value_or(std::vector<std::string>());
  std::vector<ConfigEntry> settings;
  for (const ConfigEntry& entry : config.globals) {
    if (Contains(keys, entry.key)) settings.push_back(entry);
  }
  for (std::size_t i = stage; i < chain.stages.size(); ++i) {
    // A later stage's own keys stay with it (attachtxt's filename is not
    // the csv source's).
    const std::vector<std::string> own =
        i == stage ? keys
                   : schema.IteratorKeys(chain.stages[i].type)
                         .value_or(std::vector<std::string>());
    for (const ConfigEntry& entry : chain.stages[i].settings) {
      if (i == stage ||
          (Contains(keys, entry.key) && !Contains(own, entry.key))) {
        settings.push_back(entry);
      }
    }
  }
  return settings;
}

std::vector<std::pair<std::string, std::string>> ToParamKwargs(
    const std::vector<ConfigEntry>& entries) {
  std::vector<std::pair<std::string, std::string>> kwargs;
  for (const ConfigEntry& entry : entries) {
    if (entry.is_default()) continue;
    kwargs.emplace_back(entry.key, entry.value);
  }
  return kwargs;
}

const ConfigEntry* FindEntryOfParamError(
    const ParamError& error, const std::vector<ConfigEntry>& entries) {
  // The keys that set the field the error is about: its name and aliases.
  std::vector<std::string> keys;
  if (!error.key().empty()) keys.push_back(error.key());
  if (!error.struct_name().empty()) {
    try {
      for (const ParamFieldInfo& field :
           GetParamStruct(error.struct_name()).fields) {
        if (field.name != error.key() &&
            !Contains(field.aliases, error.key())) {
          continue;
        }
        keys.push_back(field.name);
        keys.insert(keys.end(), field.aliases.begin(), field.aliases.end());
      }
    } catch (const ParamError&) {
      // Not registered: match the key alone.
    }
  }
  const auto sets_the_field = [&](const ConfigEntry& entry) {
    if (entry.is_default()) return false;
    const std::size_t colon = entry.key.find(':');
    const std::string untagged =
        colon == std::string::npos ? entry.key : entry.key.substr(colon + 1);
    return Contains(keys, entry.key) || Contains(keys, untagged);
  };
  // A refused value may have been overridden by a later entry: find the
  // entry that gave it before settling for the last one of the key.
  const ConfigEntry* last_of_key = nullptr;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (!sets_the_field(*it)) continue;
    if (error.value().empty() || it->value == error.value()) return &*it;
    if (last_of_key == nullptr) last_of_key = &*it;
  }
  return last_of_key;
}

ConfigError ConfigErrorFromParamError(const ParamError& error,
                                      const std::vector<ConfigEntry>& entries,
                                      const ConfigEntry& fallback,
                                      absl::string_view section) {
  const std::string message = absl::StrCat("in ", section, ": ", error.what());
  const ConfigEntry* at = FindEntryOfParamError(error, entries);
  return at != nullptr ? ConfigError(at->location, at->key, message)
                       : ConfigError(fallback.location, error.key(), message);
}

}  // namespace train
}  // namespace umbra
