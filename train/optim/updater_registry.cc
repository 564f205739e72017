#include "train/optim/updater_registry.h"

#include <algorithm>

#include "train/optim/param_keys.h"

namespace umbra {
namespace optim {

std::string UpdaterTypeInfo::Problem() const {
  return description.empty() ? "has no description (Describe())" : "";
}

std::vector<std::string> UpdaterParamStructs(absl::string_view type) {
  std::vector<std::string> names = {"UpdaterParam", "ScheduleParam"};
  const UpdaterTypeInfo& info = UpdaterRegistry::Get(type);
  names.insert(names.end(), info.param_structs.begin(),
               info.param_structs.end());
  return names;
}

std::vector<std::string> UpdaterKeys(absl::string_view type) {
  std::vector<std::vector<std::string>> lists;
  for (const std::string& name : UpdaterParamStructs(type)) {
    std::vector<std::string> keys;
    for (const ParamFieldInfo& field : GetParamStruct(name).fields) {
      keys.push_back(field.name);
      keys.insert(keys.end(), field.aliases.begin(), field.aliases.end());
    }
    lists.push_back(keys);
  }
  return MergeKeys(lists);
}

std::vector<std::string> UpdaterWeightKeys(absl::string_view type) {
  const std::vector<std::string> common = KeysOf<UpdaterParam>();
  const std::vector<std::string> own = WeightOwnUpdaterParamKeys();
  const auto in = [](const std::vector<std::string>& keys,
                     const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  std::vector<std::string> keys;
  for (const std::string& key : UpdaterKeys(type)) {
    if (!in(common, key) || in(own, key)) keys.push_back(key);
  }
  return keys;
}

}  // namespace optim
}  // namespace umbra
