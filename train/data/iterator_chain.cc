#include "train/data/iterator_chain.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "param/param.h"
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
        "unknown key '", entry.key, "' in ", section,
        match ? absl::StrCat("; did you mean '", *match, "'?") : ".",
        " Valid keys: ", absl::StrJoin(known, ", ")));
  }
}

}  // namespace

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
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    const IteratorStage& stage = chain.stages[i];
    const std::string section =
        absl::StrCat(chain.Describe(), ", iterator ", stage.type);
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
    const std::vector<std::string> keys = IteratorTypeKeys(stage.type);
    known_so_far.insert(known_so_far.end(), keys.begin(), keys.end());
    std::sort(known_so_far.begin(), known_so_far.end());
    known_so_far.erase(std::unique(known_so_far.begin(), known_so_far.end()),
                       known_so_far.end());
    CheckOwnKeys(stage, known_so_far, section);

    std::vector<ConfigEntry> settings;
    for (const ConfigEntry& entry :
         IteratorSettings(config, chain, i, schema)) {
      if (Contains(keys, entry.key)) settings.push_back(entry);
    }
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
