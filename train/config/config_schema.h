// Key checks for a TrainConfig: which keys the trainer, each layer type and
// each iterator type accept, and the errors for any other key.
//
// The parser cannot know these keys: layers and iterators register their
// parameter structs later (param/registry.h). A ConfigSchema answers for
// them; KeySchema is a ready one filled with key lists or with the names of
// registered parameter structs, so the layer registry can map each layer type
// to its structs:
//
//   KeySchema schema;
//   schema.AddGlobalKeys({"dev", "batch_size", "num_round", "metric"});
//   schema.AddLayerParamStructs("fullc", {"FullcParam", "UpdaterParam"});
//   schema.AddIteratorParamStructs("mnist", {"MNISTParam"});
//   ValidateTrainConfig(config, schema);  // throws ConfigError
//
// The rules ValidateTrainConfig applies:
//   - Layer settings: the key must be one of the layer type's keys. A
//     weight-tag prefix (`wmat:` or `bias:`, see WeightTags) is removed
//     first: `wmat:lr` is checked as `lr`. `lr:` is not a tag: cxxnet's
//     `lr:schedule`, `lr:step`, ... are keys of their own that the updater's
//     struct declares (e.g. as aliases), and `lr:eta` is an error.
//   - Global entries: a key the trainer reads, or (the default for every
//     layer or iterator) a key any layer or iterator type declares; tagged
//     keys must be layer keys. An indexed key `name[...]` (cxxnet's
//     `metric[label,out]`, `extra_data_shape[1]`, `label_vec[0,2)`) is
//     accepted when `name` is one of IndexedGlobalKeys(); whoever reads it
//     checks what is between the brackets.
//   - Iterator settings: a key of the stage's type or of an earlier stage in
//     the chain (cxxnet's wrappers passed settings down to the stage they
//     wrap). No tags.
//   - Layer and iterator types must be known; share[...] layers are checked
//     through the layer they share.
//   - A command-line override must be read by something: the trainer, or a
//     layer or iterator stage whose block does not set the key itself (a
//     block's own setting wins over a global one). `nhidden=32` when every
//     layer with nhidden sets it is refused, naming those lines.
// Every error has the entry's file:line, the key, the section ("layer fc1
// (fullc)", "global settings", "eval test, iterator mnist"), "did you mean
// 'x'?" when a key is close, and the valid keys.
//
// Values are checked when the layer or iterator initialises its parameter
// struct; SettingsFor / ToParamKwargs give it its entries and
// ConfigErrorFromParamError turns a ParamError into a ConfigError at the
// line that set the bad value.
#ifndef UMBRA_TRAIN_CONFIG_CONFIG_SCHEMA_H_
#define UMBRA_TRAIN_CONFIG_CONFIG_SCHEMA_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param_error.h"
#include "train/config/config_error.h"
#include "train/config/config_lexer.h"
#include "train/config/iterator_config.h"
#include "train/config/net_config.h"
#include "train/config/train_config.h"

namespace umbra {
namespace train {

// What keys each part of a config accepts.
class ConfigSchema {
 public:
  virtual ~ConfigSchema() = default;

  // Keys the trainer itself reads (dev, batch_size, num_round, ...).
  virtual std::vector<std::string> GlobalKeys() const = 0;
  // Names of the global keys written with an index, `name[...]`.
  virtual std::vector<std::string> IndexedGlobalKeys() const { return {}; }
  // Every layer type, sorted.
  virtual std::vector<std::string> LayerTypes() const = 0;
  // The keys of a layer type (fields and aliases); nullopt for an unknown
  // type.
  virtual std::optional<std::vector<std::string>> LayerKeys(
      absl::string_view type) const = 0;
  // Every iterator type, sorted.
  virtual std::vector<std::string> IteratorTypes() const = 0;
  // The keys of an iterator type; nullopt for an unknown type.
  virtual std::optional<std::vector<std::string>> IteratorKeys(
      absl::string_view type) const = 0;
  // Weight tags a layer key may be prefixed with, as in `wmat:lr`; the
  // checks remove the tag before looking the key up. A schema whose
  // LayerKeys already list the tagged keys (as layers::LayerTypeKeys does:
  // "wmat:lr", per type) returns {} here, and tagged keys are then looked
  // up as written.
  virtual std::vector<std::string> WeightTags() const {
    return {"wmat", "bias"};
  }
  // The updater keys a layer may set for its own weights (cxxnet had an
  // updater per weight): `beta1`, `momentum_schedule`, the schedule's
  // `lr:step`; SeparateUpdaterSettings moves them out of the layer's
  // settings.
  virtual std::vector<std::string> WeightUpdaterKeys() const { return {}; }
};

// A ConfigSchema made of key lists. Adding to a type that exists adds keys.
class KeySchema : public ConfigSchema {
 public:
  void AddGlobalKeys(const std::vector<std::string>& keys);
  // Names of indexed global keys: "metric" accepts `metric[...]`.
  void AddIndexedGlobalKeys(const std::vector<std::string>& names);
  void AddLayerType(const std::string& type,
                    const std::vector<std::string>& keys);
  void AddIteratorType(const std::string& type,
                       const std::vector<std::string>& keys);
  // The same with the fields and aliases of registered parameter structs
  // (param/registry.h). Throws ParamError for a name that is not registered.
  void AddGlobalParamStructs(const std::vector<std::string>& struct_names);
  void AddLayerParamStructs(const std::string& type,
                            const std::vector<std::string>& struct_names);
  void AddIteratorParamStructs(const std::string& type,
                               const std::vector<std::string>& struct_names);
  void SetWeightTags(std::vector<std::string> tags) {
    weight_tags_ = std::move(tags);
  }
  void AddWeightUpdaterKeys(const std::vector<std::string>& keys);

  std::vector<std::string> GlobalKeys() const override;
  std::vector<std::string> IndexedGlobalKeys() const override {
    return {indexed_global_keys_.begin(), indexed_global_keys_.end()};
  }
  std::vector<std::string> LayerTypes() const override;
  std::optional<std::vector<std::string>> LayerKeys(
      absl::string_view type) const override;
  std::vector<std::string> IteratorTypes() const override;
  std::optional<std::vector<std::string>> IteratorKeys(
      absl::string_view type) const override;
  std::vector<std::string> WeightTags() const override { return weight_tags_; }
  std::vector<std::string> WeightUpdaterKeys() const override {
    return {weight_updater_keys_.begin(), weight_updater_keys_.end()};
  }

 private:
  std::set<std::string> global_keys_;
  std::set<std::string> indexed_global_keys_;
  std::map<std::string, std::set<std::string>, std::less<>> layer_keys_;
  std::map<std::string, std::set<std::string>, std::less<>> iterator_keys_;
  std::vector<std::string> weight_tags_ = {"wmat", "bias"};
  std::set<std::string> weight_updater_keys_;
};

// The keys (fields and aliases) of a registered parameter struct, sorted.
// Throws ParamError when `struct_name` is not registered.
std::vector<std::string> ParamStructKeys(absl::string_view struct_name);

// "; did you mean 'x'?" for the candidate closest to `word` by edit
// distance, else one with the same '_'-separated parts in another order
// (train_eval for eval_train); "" when none is close.
std::string DidYouMean(absl::string_view word,
                       const std::vector<std::string>& candidates);

// The name of an indexed key: "metric" for "metric[label,out]"; "" for a
// key without '['.
std::string IndexedKeyName(absl::string_view key);

// Splits `wmat:lr` into ("wmat", "lr") when "wmat" is one of `tags`;
// otherwise ("", key).
std::pair<std::string, std::string> SplitWeightTag(
    absl::string_view key, const std::vector<std::string>& tags);

// Checks every key and every layer and iterator type of `config`. Throws a
// ConfigError for the first unknown one, in file order within each part, the
// parts in this order: layer types, iterator types, global keys, layer
// settings, iterator settings; then for the first command-line override
// that nothing reads.
void ValidateTrainConfig(const TrainConfig& config, const ConfigSchema& schema);

// The entries that configure `layer`, in the order to apply them: the global
// entries whose key (tag removed) the layer type declares, then the layer's
// own settings (for a share[...] layer, those of the layer it shares). Global
// keys the layer does not declare are left out.
std::vector<ConfigEntry> LayerSettings(const TrainConfig& config,
                                       const LayerDeclaration& layer,
                                       const ConfigSchema& schema);

// The entries that configure stage `stage` of `chain`: the global entries
// the iterator type declares, then the settings of that stage and those of
// the later stages of the chain whose keys it declares and the later stage
// does not (they are passed down, as in cxxnet; a key the later stage
// declares itself is its own).
std::vector<ConfigEntry> IteratorSettings(const TrainConfig& config,
                                          const IteratorChain& chain,
                                          std::size_t stage,
                                          const ConfigSchema& schema);

// (key, value) pairs for Parameter<T>::Init, in order, without the entries
// whose value is an unquoted `default`. Keys keep their weight tags.
std::vector<std::pair<std::string, std::string>> ToParamKwargs(
    const std::vector<ConfigEntry>& entries);

// The entry of `entries` that gave the value `error` refused: the last one
// whose key (tag removed or not) is error.key() or one of its aliases and
// whose value is error.value(); failing that, the last one of the key (the
// one whose value won); nullptr when no entry sets the key, e.g. for a
// missing required key.
const ConfigEntry* FindEntryOfParamError(
    const ParamError& error, const std::vector<ConfigEntry>& entries);

// A ConfigError for `error` (thrown by a parameter struct's Init with
// `entries`), located at FindEntryOfParamError's entry, or at `fallback` when
// there is none. `section` names what was being configured,
// e.g. layer.Describe().
//
//   try {
//     param.Init(ToParamKwargs(settings));
//   } catch (const ParamError& e) {
//     throw ConfigErrorFromParamError(e, settings, layer.declaration,
//                                     layer.Describe());
//   }
ConfigError ConfigErrorFromParamError(const ParamError& error,
                                      const std::vector<ConfigEntry>& entries,
                                      const ConfigEntry& fallback,
                                      absl::string_view section);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_CONFIG_SCHEMA_H_
