#include "train/optim/updater_registry.h"

#include <cstdio>
#include <cstdlib>

#include "train/optim/param_keys.h"

namespace umbra {
namespace optim {
namespace {

std::map<std::string, UpdaterTypeInfo, std::less<>>& Infos() {
  static auto* infos = new std::map<std::string, UpdaterTypeInfo, std::less<>>;
  return *infos;
}

}  // namespace

namespace internal {

void RegisterUpdaterTypeInfo(UpdaterTypeInfo info) {
  if (Infos().count(info.type) != 0) {
    std::fprintf(stderr, "updater '%s' is registered twice\n",
                 info.type.c_str());
    std::abort();
  }
  const std::string type = info.type;
  Infos().emplace(type, std::move(info));
}

}  // namespace internal

std::vector<std::string> ListUpdaterTypes() {
  std::vector<std::string> names;
  for (const auto& entry : Infos()) names.push_back(entry.first);
  return names;
}

const UpdaterTypeInfo& GetUpdaterTypeInfo(absl::string_view type) {
  auto it = Infos().find(type);
  if (it == Infos().end()) {
    throw UnknownNameError("updater", type, ListUpdaterTypes());
  }
  return it->second;
}

std::vector<std::string> UpdaterParamStructs(absl::string_view type) {
  std::vector<std::string> names = {"UpdaterParam", "ScheduleParam"};
  const UpdaterTypeInfo& info = GetUpdaterTypeInfo(type);
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
