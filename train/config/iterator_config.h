// IteratorChain: one `data = train`, `eval = NAME` or `pred = FILE` block of
// a config, a chain of iterator stages each with its settings.
//
//   data = train                 # the training data (at most one block)
//   iter = mnist                 # first stage: reads the data
//     path_img = "train-images-idx3-ubyte.gz"
//     shuffle = 1
//   iter = threadbuffer          # next stage: wraps the one before
//   iter = end
//   eval = test                  # evaluated each round, reported as "test"
//   iter = mnist ... iter = end
//   pred = pred.txt              # task = pred writes predictions there
//   iter = mnist ... iter = end
//
// Example:
//
//   const IteratorChain& train = *config.TrainIterator();
//   for (const IteratorStage& stage : train.stages) {
//     Create(stage.type, stage.settings);
//   }
#ifndef UMBRA_TRAIN_CONFIG_ITERATOR_CONFIG_H_
#define UMBRA_TRAIN_CONFIG_ITERATOR_CONFIG_H_

#include <string>
#include <vector>

#include "train/config/config_lexer.h"

namespace umbra {
namespace train {

// What an iterator block is for: the key that opens it.
enum class IteratorRole {
  kTrain,  // data = train
  kEval,   // eval = NAME
  kPred,   // pred = FILE
};

// "data", "eval" or "pred".
const char* IteratorRoleKey(IteratorRole role);

// One `iter = TYPE` line and the settings after it.
struct IteratorStage {
  // e.g. "mnist", "threadbuffer".
  std::string type;
  // The `iter = TYPE` line.
  ConfigEntry declaration;
  // Settings in order (repeated keys kept; the last wins).
  std::vector<ConfigEntry> settings;
};

// One block, from its opening line to `iter = end`.
struct IteratorChain {
  IteratorRole role = IteratorRole::kTrain;
  // "train" for data, the evaluation name for eval, the output file for pred.
  std::string name;
  // The opening line (`data = train`, ...).
  ConfigEntry declaration;
  // The `iter = end` line.
  ConfigEntry end;
  // In order: stages[0] reads the data, each later stage wraps the one
  // before. Never empty.
  std::vector<IteratorStage> stages;

  // How messages name the block: "data train", "eval test", "pred out.txt".
  std::string Describe() const;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_ITERATOR_CONFIG_H_
