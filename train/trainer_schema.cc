#include "train/trainer_schema.h"

#include <string>
#include <vector>

#include "layers/layer_registry.h"
#include "train/data/iterator_chain.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_param.h"

namespace umbra {
namespace train {

KeySchema MakeTrainerSchema() {
  KeySchema schema;
  schema.AddGlobalParamStructs({"TrainerParam"});
  schema.AddIndexedGlobalKeys(TrainerIndexedKeys());
  for (const std::string& type : optim::ListUpdaterTypes()) {
    schema.AddGlobalKeys(optim::UpdaterKeys(type));
  }
  for (const std::string& type : layers::ListLayerTypes()) {
    schema.AddLayerType(type,
                        layers::LayerTypeKeys(layers::GetLayerTypeInfo(type)));
  }
  schema.SetWeightTags({});
  AddIteratorSchema(&schema);
  return schema;
}

}  // namespace train
}  // namespace umbra
