// TrainConfig: a whole config file read into its parts: the global settings,
// the network (net_config.h) and the data iterator blocks
// (iterator_config.h), plus the command-line overrides.
//
// Where each entry goes, in file order:
//   - `netconfig = start` ... `netconfig = end` holds the network; a
//     `layer[...] = ...` line starts a layer and the lines after it, up to the
//     next layer line or `netconfig = end`, set that layer. Lines inside
//     a netconfig block before its first layer are global (cxxnet allowed
//     this for `wmat:lr` and the like). Several netconfig blocks add to one
//     network.
//   - `data = train`, `eval = NAME`, `pred = FILE` open an iterator block;
//     `iter = TYPE` starts a stage, the lines after it set that stage,
//     `iter = end` closes the block.
//   - Everything else is global: a setting of the trainer, or a default for
//     every layer and iterator that declares the key.
//   - An unquoted value `default` leaves the key as it was (cxxnet's rule);
//     such entries are kept for key checks but skipped by FindGlobal and
//     ToParamKwargs.
//   - Command-line overrides come after the whole file and may only set
//     global keys (ValidateTrainConfig refuses one that nothing would read).
// Structural mistakes are ConfigErrors at the offending line: a layer line
// outside netconfig, `netconfig = end` without a start, nested or
// unterminated blocks, `iter = end` without a block, a block without stages,
// a setting before the first `iter = TYPE`, a second `data` or `pred`
// block, two eval blocks of one name, and everything net_config.h rejects.
// Unknown keys are found by ValidateTrainConfig (config_schema.h).
//
// Example:
//
//   TrainConfig config = LoadTrainConfig("mnist.conf", {"num_round=2"});
//   config.FindGlobal("num_round")->value;  // "2"
//   config.net.layers.size();
//   config.TrainIterator()->stages[0].type;  // "mnist"
#ifndef UMBRA_TRAIN_CONFIG_TRAIN_CONFIG_H_
#define UMBRA_TRAIN_CONFIG_TRAIN_CONFIG_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/config/config_lexer.h"
#include "train/config/iterator_config.h"
#include "train/config/net_config.h"

namespace umbra {
namespace train {

struct TrainConfig {
  // The file (or source name) the config was read from; errors about
  // something no line says point here. Empty for BuildTrainConfig's own.
  std::string source;
  // Global entries in order: the file's, then the command line's.
  std::vector<ConfigEntry> globals;
  // Global updater keys after a weight tag (`bias:lr:step`, `wmat:beta1`):
  // every weight's with that tag, as cxxnet applied them (moved out of
  // `globals` by SeparateUpdaterSettings).
  std::vector<ConfigEntry> tagged_updater_settings;
  NetConfig net;
  // Iterator blocks in file order.
  std::vector<IteratorChain> iterators;

  // The last global entry with `key` whose value is not an unquoted
  // `default`, or nullptr.
  const ConfigEntry* FindGlobal(absl::string_view key) const;
  // Where an error about global `key` points: FindGlobal(key)'s line, else
  // the config file as a whole.
  SourceLocation GlobalLocation(absl::string_view key) const;
  // The `data = train` block, or nullptr.
  const IteratorChain* TrainIterator() const;
  // The `eval = NAME` blocks in file order.
  std::vector<const IteratorChain*> EvalIterators() const;
  // The `pred = FILE` block, or nullptr.
  const IteratorChain* PredIterator() const;
};

// Sorts `file_entries` and then `overrides` into a TrainConfig. Throws
// ConfigError for a structural mistake.
TrainConfig BuildTrainConfig(const std::vector<ConfigEntry>& file_entries,
                             const std::vector<ConfigEntry>& overrides = {});

// ParseConfigText + BuildTrainConfig.
TrainConfig ParseTrainConfigText(absl::string_view text,
                                 absl::string_view source_name);

// Reads the file at `path` and the `key=value` arguments after it (argv[2]
// onwards: `override_args[i]` is argument i + 2). Throws ConfigError.
TrainConfig LoadTrainConfig(const std::string& path,
                            const std::vector<std::string>& override_args = {});

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_TRAIN_CONFIG_H_
