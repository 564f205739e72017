#include "train/data/iterator_chain.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "param/edit_distance.h"
#include "param/param.h"
#include "param/quote.h"
#include "train/config/config.h"
#include "train/data/data_error.h"
#include "train/data/iterator_registry.h"

namespace umbra {
namespace train {
namespace {

bool Contains(const std::vector<std::string>& sorted, const std::string& key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// A stage's own setting that no stage up to it declares.
void CheckOwnKeys(const IteratorStage& stage,
                  const std::vector<std::string>& known,
                  const std::string& section) {
  for (const ConfigEntry& entry : stage.settings) {
    if (Contains(known, entry.key)) continue;
    const std::optional<std::string> match =
        param::ClosestMatch(entry.key, known);
    throw entry.Error(absl::StrCat(
        "unknown key ", QuoteShort(entry.key), " in ", section,
        match ? absl::StrCat("; did you mean '", *match, "'?") : ".", " ",
        param::NameList(entry.key, known, "Valid keys")));
  }
}

// The settings of stage `index` of `chain` that its type takes: its own
// and the block's and the config's inherited ones.
std::vector<ConfigEntry> StageSettings(const TrainConfig& config,
                                       const IteratorChain& chain,
                                       std::size_t index,
                                       const KeySchema& schema,
                                       const std::vector<std::string>& keys) {
  std::vector<ConfigEntry> settings;
  for (const ConfigEntry& entry :
       IteratorSettings(config, chain, index, schema)) {
    if (Contains(keys, entry.key)) settings.push_back(entry);
  }
  return settings;
}

}  // namespace

void CheckChainStages(const IteratorChain& chain) {
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    const IteratorStage& stage = chain.stages[i];
    const IteratorTypeInfo* info = nullptr;
    try {
      info = &IteratorRegistry::Get(stage.type);
    } catch (const DataError& e) {
      throw stage.declaration.Error(
          absl::StrCat("in ", chain.Describe(), ": ", e.what()));
    }
    const bool source = info->kind == IteratorKind::kSource;
    if (source != (i == 0)) {
      throw stage.declaration.Error(absl::StrCat(
          "in ", chain.Describe(), ": iterator '", stage.type, "' ",
          source ? "reads its own data and cannot wrap the stage "
                   "before it; a block has one source, first"
                 : "wraps the stage before it and cannot come "
                   "first; start the block with a source"));
    }
  }
}

void CheckIteratorFiles(const TrainConfig& config, const IteratorChain& chain) {
  const IteratorStage& stage = chain.stages.front();
  const IteratorTypeInfo* info = IteratorRegistry::Find(stage.type);
  if (info == nullptr || !info->input_files) return;
  KeySchema schema;
  AddIteratorSchema(&schema);
  const std::vector<ConfigEntry> settings =
      StageSettings(config, chain, 0, schema, IteratorTypeKeys(stage.type));
  std::vector<std::pair<std::string, std::string>> files;
  try {
    files = info->input_files(ToParamKwargs(settings));
  } catch (const ParamError&) {
    return;  // CreateIteratorChain says what is wrong with the value
  } catch (const DataError& e) {
    // Settings that name no files (imgbin's image_conf_prefix).
    throw ConfigErrorFromParamError(
        ParamError(e.what(), "", e.key()), settings, stage.declaration,
        absl::StrCat(chain.Describe(), ", iterator ", stage.type));
  }
  for (const auto& [key, path] : files) {
    // O_NONBLOCK: a FIFO without a writer opens rather than waits.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
      close(fd);
      continue;
    }
    const std::string detail = absl::StrCat(
        "in ", chain.Describe(), ", iterator ", stage.type, ": key '", key,
        "': cannot open '", path, "': ", std::strerror(errno));
    // The line that set it: the last entry with that value.
    for (auto entry = settings.rbegin(); entry != settings.rend(); ++entry) {
      if (absl::StrContains(entry->value, path)) throw entry->Error(detail);
    }
    throw stage.declaration.Error(detail);
  }
}

void AddIteratorSchema(KeySchema* schema) {
  for (const std::string& type : IteratorRegistry::List()) {
    schema->AddIteratorParamStructs(type,
                                    IteratorRegistry::Get(type).param_structs);
  }
}

std::unique_ptr<DataIterator> CreateIteratorChain(const TrainConfig& config,
                                                  const IteratorChain& chain,
                                                  BatchPart part) {
  KeySchema schema;
  AddIteratorSchema(&schema);
  std::unique_ptr<DataIterator> iterator;
  std::vector<std::string> known_so_far;
  CheckChainStages(chain);
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    const IteratorStage& stage = chain.stages[i];
    const std::string section =
        absl::StrCat(chain.Describe(), ", iterator ", stage.type);
    const std::vector<std::string> keys = IteratorTypeKeys(stage.type);
    known_so_far.insert(known_so_far.end(), keys.begin(), keys.end());
    std::sort(known_so_far.begin(), known_so_far.end());
    known_so_far.erase(std::unique(known_so_far.begin(), known_so_far.end()),
                       known_so_far.end());
    CheckOwnKeys(stage, known_so_far, section);

    const std::vector<ConfigEntry> settings =
        StageSettings(config, chain, i, schema, keys);
    try {
      iterator = CreateIterator(stage.type, ToParamKwargs(settings),
                                std::move(iterator), part);
    } catch (const ParamError& e) {
      throw ConfigErrorFromParamError(e, settings, stage.declaration, section);
    } catch (const DataError& e) {
      throw ConfigErrorFromParamError(ParamError(e.what(), "", e.key()),
                                      settings, stage.declaration, section);
    }
  }
  return iterator;
}

}  // namespace train
}  // namespace umbra
