#include "train/trainer_schema.h"

#include <string>
#include <vector>

#include "train/data/iterator_chain.h"
#include "train/net/network.h"
#include "train/optim/updater_registry.h"
#include "train/trainer_param.h"

namespace umbra {
namespace train {

KeySchema MakeTrainerSchema() {
  KeySchema schema;
  schema.AddGlobalParamStructs({"TrainerParam"});
  schema.AddIndexedGlobalKeys(TrainerIndexedKeys());
  for (const std::string& type : optim::UpdaterRegistry::List()) {
    schema.AddGlobalKeys(optim::UpdaterKeys(type));
    schema.AddWeightUpdaterKeys(optim::UpdaterWeightKeys(type));
  }
  AddLayerTypes(&schema);
  AddIteratorSchema(&schema);
  return schema;
}

}  // namespace train
}  // namespace umbra
