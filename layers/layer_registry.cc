#include "layers/layer_registry.h"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "param/param.h"

namespace umbra {
namespace layers {
namespace {

std::map<std::string, LayerTypeInfo, std::less<>>& Types() {
  static auto* types = new std::map<std::string, LayerTypeInfo, std::less<>>;
  return *types;
}

}  // namespace

namespace internal {

void RegisterLayerTypeInfo(LayerTypeInfo info) {
  if (Types().count(info.type) != 0) {
    std::fprintf(stderr,
                 "umbra layers: layer type '%s' is registered twice; each "
                 "type registers once, in the .cc file that instantiates it\n",
                 info.type.c_str());
    std::abort();
  }
  const std::string type = info.type;
  Types().emplace(type, std::move(info));
}

void CheckNewCreator(bool exists, const std::string& type, const char* device) {
  if (!exists) return;
  std::fprintf(stderr,
               "umbra layers: layer type '%s' has two %s implementations "
               "registered\n",
               type.c_str(), device);
  std::abort();
}

}  // namespace internal

std::vector<std::string> ListLayerTypes() {
  std::vector<std::string> names;
  for (const auto& entry : Types()) names.push_back(entry.first);
  return names;
}

const LayerTypeInfo& GetLayerTypeInfo(absl::string_view type) {
  auto it = Types().find(std::string(type));
  if (it != Types().end()) return it->second;
  const std::vector<std::string> names = ListLayerTypes();
  std::optional<std::string> closest = param::ClosestMatch(type, names);
  throw LayerError("unknown layer type '" + std::string(type) + "'" +
                   (closest ? "; did you mean '" + *closest + "'?" : ";") +
                   " Known types: " +
                   (names.empty() ? std::string("none (no layer library "
                                                "linked; link //layers)")
                                  : JoinNames(names)));
}

std::string LayerTypeMarkdown(absl::string_view type) {
  const LayerTypeInfo& info = GetLayerTypeInfo(type);
  std::string out = "## " + info.type + "\n\n" + info.description + "\n\n";
  if (!info.weight_tags.empty()) {
    out += "Weights: " + JoinNames(info.weight_tags) +
           "; every WeightParam key may also be given for one of them as "
           "`<tag>:<key>`.\n\n";
  }
  for (const param::ParamManager* manager : info.params) {
    out += ParamFieldsToMarkdown(manager->name(), manager->GetFieldInfo());
    out += "\n";
  }
  return out;
}

}  // namespace layers
}  // namespace umbra
