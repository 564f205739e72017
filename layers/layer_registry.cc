#include "layers/layer_registry.h"

#include "param/param.h"

namespace umbra {
namespace layers {

std::string LayerTypeMarkdown(absl::string_view type) {
  const LayerTypeInfo& info = LayerRegistry::Get(type);
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
