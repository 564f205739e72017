#include "train/optim/updater_registry.h"

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

}  // namespace optim
}  // namespace umbra
