#include "train/data/iterator_registry.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "param/param.h"
#include "train/config_schema.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_error.h"
#include "train/data/instance_transform.h"

namespace umbra {
namespace train {
namespace {

std::map<std::string, IteratorTypeInfo, std::less<>>& Types() {
  static auto* types = new std::map<std::string, IteratorTypeInfo, std::less<>>;
  return *types;
}

[[noreturn]] void AbortRegistration(const std::string& type,
                                    const std::string& problem) {
  std::cerr << "umbra: iterator type '" << type << "': " << problem << "\n";
  std::abort();
}

// "; did you mean 'x'?" or "".
std::string Suggestion(absl::string_view word,
                       const std::vector<std::string>& candidates) {
  const std::optional<std::string> match =
      param::ClosestMatch(word, candidates);
  return match ? absl::StrCat("; did you mean '", *match, "'?") : "";
}

}  // namespace

bool RegisterIteratorType(IteratorTypeInfo info) {
  if (info.type.empty()) AbortRegistration(info.type, "empty name");
  if (Types().count(info.type) != 0) {
    AbortRegistration(info.type, "registered twice");
  }
  const bool source = info.kind == IteratorKind::kSource;
  if (source != static_cast<bool>(info.make_dataset) ||
      source == static_cast<bool>(info.wrap)) {
    AbortRegistration(info.type,
                      "a source needs make_dataset, a wrapper wrap, not both");
  }
  if (source) {
    info.param_structs.push_back("BatchIteratorParam");
    info.param_structs.push_back("AugmentIteratorParam");
  }
  const std::string type = info.type;
  Types().emplace(type, std::move(info));
  return true;
}

std::vector<std::string> ListIteratorTypes() {
  std::vector<std::string> names;
  for (const auto& entry : Types()) names.push_back(entry.first);
  return names;
}

const IteratorTypeInfo& GetIteratorTypeInfo(absl::string_view type) {
  auto it = Types().find(type);
  if (it == Types().end()) {
    const std::vector<std::string> known = ListIteratorTypes();
    throw DataError(absl::StrCat("unknown iterator type '", type, "'",
                                 Suggestion(type, known),
                                 " Known types: ", absl::StrJoin(known, ", ")));
  }
  return it->second;
}

std::vector<std::string> IteratorTypeKeys(absl::string_view type) {
  std::set<std::string> keys;
  for (const std::string& name : GetIteratorTypeInfo(type).param_structs) {
    for (const std::string& key : ParamStructKeys(name)) keys.insert(key);
  }
  return std::vector<std::string>(keys.begin(), keys.end());
}

std::unique_ptr<DataIterator> CreateIterator(
    absl::string_view type, const ParamKwargs& kwargs,
    std::unique_ptr<DataIterator> base) {
  const IteratorTypeInfo& info = GetIteratorTypeInfo(type);
  const std::vector<std::string> keys = IteratorTypeKeys(type);
  for (const auto& [key, value] : kwargs) {
    if (!std::binary_search(keys.begin(), keys.end(), key)) {
      const std::string hint = Suggestion(key, keys);
      throw DataError(absl::StrCat("iterator ", info.type, ": unknown key '",
                                   key, "'", hint.empty() ? "." : hint,
                                   " Valid keys: ", absl::StrJoin(keys, ", ")),
                      key);
    }
  }
  if (info.kind == IteratorKind::kWrapper) {
    if (base == nullptr) {
      throw DataError(absl::StrCat(
          "iterator ", info.type,
          " wraps another iterator: put a source stage (",
          absl::StrJoin(ListIteratorTypes(), ", "), ") before it"));
    }
    return info.wrap(std::move(base), kwargs);
  }
  if (base != nullptr) {
    throw DataError(absl::StrCat("iterator ", info.type,
                                 " reads its own data and cannot wrap the "
                                 "stage before it; a block has one source, "
                                 "first"));
  }
  BatchIteratorParam batch;
  batch.InitAllowUnknown(kwargs);
  AugmentIteratorParam augment;
  augment.InitAllowUnknown(kwargs);
  std::unique_ptr<Dataset> dataset = info.make_dataset(kwargs, batch, augment);
  try {
    return std::make_unique<BatchIterator>(std::move(dataset), batch, augment);
  } catch (const DataError& e) {
    throw DataError(absl::StrCat(info.type, ": ", e.what()), e.key());
  }
}

}  // namespace train
}  // namespace umbra
