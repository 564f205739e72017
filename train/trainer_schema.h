// The ConfigSchema of the shipped trainer: the keys of every registered
// layer type, iterator type and updater, and the trainer's own global keys
// (TrainerParam), so that ValidateTrainConfig can check a whole config
// before anything starts.
//
// Example:
//
//   KeySchema schema = MakeTrainerSchema();
//   ValidateTrainConfig(config, schema);  // ConfigError at the bad line
#ifndef UMBRA_TRAIN_TRAINER_SCHEMA_H_
#define UMBRA_TRAIN_TRAINER_SCHEMA_H_

#include "train/config/config.h"

namespace umbra {
namespace train {

// Global keys: TrainerParam's and every updater's (eta, momentum, lr:*,
// ...), and the indexed keys metric[...], label_vec[...) and
// extra_data_shape[...] (trainer_param.h). Layer keys: layers::LayerTypeKeys of
// every registered type, tagged keys listed as written (no separate weight
// tags). Iterator keys: as AddIteratorSchema adds them.
KeySchema MakeTrainerSchema();

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_TRAINER_SCHEMA_H_
