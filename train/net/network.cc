#include "train/net/network.h"

#include <string>

#include "absl/strings/str_format.h"
#include "layers/layer_registry.h"
#include "train/net/network_impl.h"

namespace umbra {
namespace train {

std::string ShapeText(const Shape<4>& shape) {
  return absl::StrFormat("(%d,%d,%d,%d)", shape[0], shape[1], shape[2],
                         shape[3]);
}

void AddLayerTypes(KeySchema* schema) {
  for (const std::string& type : layers::LayerRegistry::List()) {
    schema->AddLayerType(
        type, layers::LayerTypeKeys(layers::LayerRegistry::Get(type)));
  }
  schema->SetWeightTags({});
}

template class BasicNetwork<cpu>;

}  // namespace train
}  // namespace umbra
