#include "layers/layer_registry.h"

#include <algorithm>
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
  for (const auto& alias : info.weight_tag_aliases) {
    const bool names_a_tag =
        std::find(info.weight_tags.begin(), info.weight_tags.end(),
                  alias.second) != info.weight_tags.end();
    const bool is_a_tag =
        std::find(info.weight_tags.begin(), info.weight_tags.end(),
                  alias.first) != info.weight_tags.end();
    const bool repeated =
        std::count_if(
            info.weight_tag_aliases.begin(), info.weight_tag_aliases.end(),
            [&](const auto& other) { return other.first == alias.first; }) != 1;
    if (!names_a_tag || is_a_tag || repeated) {
      std::fprintf(stderr,
                   "umbra layers: layer type '%s' declares the weight tag "
                   "alias '%s' -> '%s'; an alias must name one of its weight "
                   "tags (%s), be none of them, and be declared once\n",
                   info.type.c_str(), alias.first.c_str(), alias.second.c_str(),
                   JoinNames(info.weight_tags).c_str());
      std::abort();
    }
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
    out += "Weights: " + WeightTagNames(info) +
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
