// The model the checkpoint fuzzer loads every input into, and that its seed
// checkpoints come from: one weight of every kind a checkpoint holds (conv
// and fullc weights and biases, batch_norm's gamma and beta and its moving
// statistics, a prelu slope) and an updater with state (momentum).
#ifndef UMBRA_TOOLS_FUZZ_CHECKPOINT_FUZZ_MODEL_H_
#define UMBRA_TOOLS_FUZZ_CHECKPOINT_FUZZ_MODEL_H_

#include <memory>

#include "train/model.h"

namespace umbra {
namespace tools {

// A new model for training, its weights initialised from a fixed seed.
std::unique_ptr<train::Model> MakeCheckpointFuzzModel();

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_FUZZ_CHECKPOINT_FUZZ_MODEL_H_
