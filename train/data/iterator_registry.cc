#include "train/data/iterator_registry.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "param/edit_distance.h"
#include "param/param.h"
#include "param/quote.h"
#include "train/config/config_schema.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_error.h"
#include "train/data/instance_transform.h"

namespace umbra {
namespace train {
std::string IteratorTypeInfo::Problem() const {
  const bool source = kind == IteratorKind::kSource;
  if (source != static_cast<bool>(make_dataset) ||
      source == static_cast<bool>(wrap)) {
    return "a source needs make_dataset, a wrapper wrap, not both";
  }
  return "";
}

bool RegisterIteratorType(IteratorTypeInfo info) {
  if (info.kind == IteratorKind::kSource) {
    info.param_structs.push_back("BatchIteratorParam");
    info.param_structs.push_back("AugmentIteratorParam");
  }
  return IteratorRegistry::Add(std::move(info));
}

std::vector<std::string> IteratorTypeKeys(absl::string_view type) {
  std::set<std::string> keys;
  for (const std::string& name : IteratorRegistry::Get(type).param_structs) {
    for (const std::string& key : ParamStructKeys(name)) keys.insert(key);
  }
  return std::vector<std::string>(keys.begin(), keys.end());
}

std::unique_ptr<DataIterator> CreateIterator(absl::string_view type,
                                             const ParamKwargs& kwargs,
                                             std::unique_ptr<DataIterator> base,
                                             BatchPart part) {
  const IteratorTypeInfo& info = IteratorRegistry::Get(type);
  const std::vector<std::string> keys = IteratorTypeKeys(type);
  for (const auto& [key, value] : kwargs) {
    if (!std::binary_search(keys.begin(), keys.end(), key)) {
      const std::string hint = DidYouMean(key, keys);
      throw DataError(
          absl::StrCat("iterator ", info.type, ": unknown key ",
                       QuoteShort(key), hint.empty() ? "." : hint, " ",
                       param::NameList(key, keys, "Valid keys")),
          key);
    }
  }
  if (info.kind == IteratorKind::kWrapper) {
    if (base == nullptr) {
      throw DataError(absl::StrCat(
          "iterator ", info.type,
          " wraps another iterator: put a source stage (",
          absl::StrJoin(IteratorRegistry::List(), ", "), ") before it"));
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
    return std::make_unique<BatchIterator>(std::move(dataset), batch, augment,
                                           part);
  } catch (const DataError& e) {
    throw DataError(absl::StrCat(info.type, ": ", e.what()), e.key());
  }
}

}  // namespace train
}  // namespace umbra
