#include "train/config/train_config.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "train/config/config_error.h"

namespace umbra {
namespace train {
namespace {

constexpr absl::string_view kDefaultValue = "default";

bool IsLayerKey(absl::string_view key) {
  return absl::StartsWith(key, "layer[");
}

// Reads entries one at a time and keeps track of the open block.
class ConfigBuilder {
 public:
  void Add(const ConfigEntry& entry) {
    const std::string& key = entry.key;
    if (key == "netconfig") return Netconfig(entry);
    if (IsLayerKey(key)) return Layer(entry);
    if (key == "data" || key == "eval" || key == "pred") return Open(entry);
    if (key == "iter") return Iter(entry);
    if (in_block_) {
      if (chain_.stages.empty()) {
        Fail(entry,
             absl::StrCat("'", key, "' in the ", chain_.Describe(),
                          " block (line ", chain_.declaration.location.line,
                          ") before its first 'iter = TYPE'; "
                          "expected iter = TYPE first"));
      }
      chain_.stages.back().settings.push_back(entry);
      return;
    }
    if (in_netconfig_ && layer_open_) {
      net_.AddLayerSetting(entry);
      return;
    }
    Global(entry);
  }

  void AddOverride(const ConfigEntry& entry) {
    const std::string& key = entry.key;
    if (key == "netconfig" || IsLayerKey(key) || key == "data" ||
        key == "eval" || key == "pred" || key == "iter" ||
        key == "extra_data_num") {
      Fail(entry, absl::StrCat("'", key,
                               "' shapes the network or its data blocks and "
                               "cannot be given on the command line; only "
                               "global settings can be overridden there"));
    }
    Global(entry);
  }

  // Checks nothing is left open and returns the config.
  TrainConfig Finish() && {
    if (in_netconfig_) {
      Fail(netconfig_start_,
           "netconfig = start has no netconfig = end; expected netconfig = "
           "end after the last layer");
    }
    if (in_block_) {
      Fail(chain_.declaration,
           absl::StrCat("the ", chain_.Describe(),
                        " block has no 'iter = end'; expected iter = end "
                        "after its settings"));
    }
    config_.net = std::move(net_).Finish();
    return std::move(config_);
  }

 private:
  [[noreturn]] static void Fail(const ConfigEntry& entry,
                                const std::string& detail) {
    throw entry.Error(detail);
  }

  void Global(const ConfigEntry& entry) {
    if (entry.key == "extra_data_num" && entry.value != kDefaultValue) {
      int count = 0;
      if (!absl::SimpleAtoi(entry.value, &count) || count < 0 || count > 1000) {
        Fail(entry, absl::StrCat("key 'extra_data_num': expected an int in "
                                 "[0, 1000], got '",
                                 entry.value, "'"));
      }
      if (net_.has_layers()) {
        Fail(entry,
             "key 'extra_data_num' must come before the first layer line");
      }
      net_.AddExtraInputs(count, entry);
    }
    config_.globals.push_back(entry);
  }

  void Netconfig(const ConfigEntry& entry) {
    if (in_block_) FailInBlock(entry);
    if (entry.value == "start") {
      if (in_netconfig_) {
        Fail(entry, absl::StrCat("netconfig = start inside the netconfig "
                                 "opened at line ",
                                 netconfig_start_.location.line,
                                 "; expected netconfig = end first"));
      }
      in_netconfig_ = true;
      layer_open_ = false;
      netconfig_start_ = entry;
      return;
    }
    if (entry.value == "end") {
      if (!in_netconfig_) {
        Fail(entry, last_netconfig_end_
                        ? absl::StrCat("netconfig = end without netconfig = "
                                       "start (the netconfig block was "
                                       "already closed at line ",
                                       last_netconfig_end_->location.line, ")")
                        : std::string("netconfig = end without netconfig = "
                                      "start"));
      }
      in_netconfig_ = false;
      layer_open_ = false;
      last_netconfig_end_ = entry;
      return;
    }
    Fail(entry, absl::StrCat("key 'netconfig': expected 'start' or 'end', "
                             "got '",
                             entry.value, "'"));
  }

  void Layer(const ConfigEntry& entry) {
    if (in_block_) FailInBlock(entry);
    if (!in_netconfig_) {
      Fail(entry, absl::StrCat("'", entry.ToString(),
                               "': a layer line outside netconfig; expected "
                               "it between netconfig = start and netconfig "
                               "= end"));
    }
    net_.AddLayer(entry);
    layer_open_ = true;
  }

  void Open(const ConfigEntry& entry) {
    if (in_block_) FailInBlock(entry);
    if (in_netconfig_) {
      Fail(entry, absl::StrCat("'", entry.ToString(),
                               "' inside netconfig (opened at line ",
                               netconfig_start_.location.line,
                               "); expected netconfig = end first"));
    }
    IteratorChain chain;
    chain.declaration = entry;
    chain.name = entry.value;
    if (entry.key == "data") {
      chain.role = IteratorRole::kTrain;
      if (entry.value != "train") {
        Fail(entry,
             absl::StrCat("key 'data': expected 'train', got '", entry.value,
                          "'; evaluation data is declared with "
                          "eval = NAME"));
      }
    } else if (entry.key == "eval") {
      chain.role = IteratorRole::kEval;
    } else {
      chain.role = IteratorRole::kPred;
    }
    for (const IteratorChain& earlier : config_.iterators) {
      if (earlier.role != chain.role) continue;
      if (chain.role == IteratorRole::kEval && earlier.name != chain.name) {
        continue;
      }
      Fail(entry, absl::StrCat("a second ", entry.key, " block",
                               chain.role == IteratorRole::kEval
                                   ? absl::StrCat(" named '", chain.name, "'")
                                   : std::string(),
                               "; the first is at line ",
                               earlier.declaration.location.line));
    }
    chain_ = std::move(chain);
    in_block_ = true;
  }

  void Iter(const ConfigEntry& entry) {
    if (in_netconfig_) {
      Fail(entry, absl::StrCat("'", entry.ToString(),
                               "' inside netconfig (opened at line ",
                               netconfig_start_.location.line,
                               "); iterators go in data/eval/pred blocks "
                               "outside netconfig"));
    }
    if (!in_block_) {
      Fail(entry,
           entry.value == "end"
               ? std::string("iter = end without a block to close; expected "
                             "data = train, eval = NAME or pred = FILE "
                             "before the iterator")
               : absl::StrCat("'", entry.ToString(),
                              "' outside a data/eval/pred block; expected "
                              "data = train, eval = NAME or pred = FILE "
                              "first"));
    }
    if (entry.value == "end") {
      if (chain_.stages.empty()) {
        Fail(entry, absl::StrCat("the ", chain_.Describe(), " block (line ",
                                 chain_.declaration.location.line,
                                 ") has no iterator; expected iter = TYPE "
                                 "before iter = end"));
      }
      chain_.end = entry;
      config_.iterators.push_back(std::move(chain_));
      chain_ = IteratorChain();
      in_block_ = false;
      return;
    }
    if (entry.value == kDefaultValue) {
      Fail(entry, "key 'iter': expected an iterator type or 'end'");
    }
    IteratorStage stage;
    stage.type = entry.value;
    stage.declaration = entry;
    chain_.stages.push_back(std::move(stage));
  }

  [[noreturn]] void FailInBlock(const ConfigEntry& entry) const {
    Fail(entry,
         absl::StrCat("'", entry.ToString(), "' inside the ", chain_.Describe(),
                      " block (line ", chain_.declaration.location.line,
                      "); expected iter = end first"));
  }

  TrainConfig config_;
  NetConfigBuilder net_;
  bool in_netconfig_ = false;
  // Whether a layer line of the open netconfig block takes the next settings;
  // lines before a block's first layer are global, as in cxxnet.
  bool layer_open_ = false;
  ConfigEntry netconfig_start_;
  std::optional<ConfigEntry> last_netconfig_end_;
  bool in_block_ = false;
  IteratorChain chain_;
};

}  // namespace

const ConfigEntry* TrainConfig::FindGlobal(absl::string_view key) const {
  for (auto it = globals.rbegin(); it != globals.rend(); ++it) {
    if (it->key == key && !it->is_default()) {
      return &*it;
    }
  }
  return nullptr;
}

SourceLocation TrainConfig::GlobalLocation(absl::string_view key) const {
  const ConfigEntry* entry = FindGlobal(key);
  return entry != nullptr ? entry->location : SourceLocation::File(source, 0);
}

const IteratorChain* TrainConfig::TrainIterator() const {
  for (const IteratorChain& chain : iterators) {
    if (chain.role == IteratorRole::kTrain) return &chain;
  }
  return nullptr;
}

std::vector<const IteratorChain*> TrainConfig::EvalIterators() const {
  std::vector<const IteratorChain*> chains;
  for (const IteratorChain& chain : iterators) {
    if (chain.role == IteratorRole::kEval) chains.push_back(&chain);
  }
  return chains;
}

const IteratorChain* TrainConfig::PredIterator() const {
  for (const IteratorChain& chain : iterators) {
    if (chain.role == IteratorRole::kPred) return &chain;
  }
  return nullptr;
}

TrainConfig BuildTrainConfig(const std::vector<ConfigEntry>& file_entries,
                             const std::vector<ConfigEntry>& overrides) {
  ConfigBuilder builder;
  for (const ConfigEntry& entry : file_entries) builder.Add(entry);
  // Blocks left open are reported before any override is looked at.
  TrainConfig config = std::move(builder).Finish();
  ConfigBuilder override_builder;
  for (const ConfigEntry& entry : overrides) {
    override_builder.AddOverride(entry);
  }
  TrainConfig from_command_line = std::move(override_builder).Finish();
  for (ConfigEntry& entry : from_command_line.globals) {
    config.globals.push_back(std::move(entry));
  }
  return config;
}

TrainConfig ParseTrainConfigText(absl::string_view text,
                                 absl::string_view source_name) {
  TrainConfig config = BuildTrainConfig(ParseConfigText(text, source_name));
  config.source = std::string(source_name);
  return config;
}

TrainConfig LoadTrainConfig(const std::string& path,
                            const std::vector<std::string>& override_args) {
  // Arguments are checked first: they are cheaper to fix than the file.
  std::vector<ConfigEntry> overrides =
      ParseCommandLineOverrides(override_args, 2);
  TrainConfig config = BuildTrainConfig(ParseConfigFile(path), overrides);
  config.source = path;
  return config;
}

}  // namespace train
}  // namespace umbra
