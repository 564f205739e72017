// Builds the data iterator of a config block (`data = train` ... `iter =
// end`): the first stage is a source (mnist, csv, binary), every later stage
// wraps the one before (threadbuffer). This is what the trainer calls.
//
// Each stage gets, in order (the last value of a key wins):
//   1. the global entries whose key the stage's type declares (batch_size,
//      input_shape, seed, ... written outside any block are defaults);
//   2. its own settings;
//   3. the settings of later stages whose key it declares (cxxnet passed
//      settings down: `shuffle = 1` under threadbuffer reaches mnist).
// A stage's own key that neither it nor an earlier stage declares is an
// error. Every error is a ConfigError at the config line responsible: the
// `iter =` line for an unknown or misplaced type, the line that set a bad
// value, the line of path_img for a missing or corrupt file, and so on:
//
//   mnist.conf:5: in data train, iterator mnist: mnist: key 'path_img':
//   cannot open 'data/train-images.gz': No such file or directory
//
// Example:
//
//   TrainConfig config = LoadTrainConfig("mnist.conf");
//   KeySchema schema;
//   AddIteratorSchema(&schema);   // plus the layers' and trainer's keys
//   ValidateTrainConfig(config, schema);
//   std::unique_ptr<DataIterator> train =
//       CreateIteratorChain(config, *config.TrainIterator());
//   Shape<4> shape = train->data_shape();   // for the net's input
#ifndef UMBRA_TRAIN_DATA_ITERATOR_CHAIN_H_
#define UMBRA_TRAIN_DATA_ITERATOR_CHAIN_H_

#include <memory>

#include "train/config/config.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_batch.h"

namespace umbra {
namespace train {

// Adds every registered iterator type with its parameter structs.
void AddIteratorSchema(KeySchema* schema);

// Checks that every stage of `chain` has a known type, the first a source
// and every later one a wrapper. Throws ConfigError at the `iter =` line.
void CheckChainStages(const IteratorChain& chain);

// Checks that every file the source of `chain` will read (its type's
// input_files) can be opened, before any data is read: a ConfigError at the
// line of the key that names it, with the system's reason ("No such file
// or directory", "Permission denied"). Everything else about the chain is
// left to CreateIteratorChain.
void CheckIteratorFiles(const TrainConfig& config, const IteratorChain& chain);

// The iterator of `chain` (one of config.iterators), giving `part` of every
// batch (BatchPart: a rank's rows when batches are split over ranks).
// Throws ConfigError.
std::unique_ptr<DataIterator> CreateIteratorChain(const TrainConfig& config,
                                                  const IteratorChain& chain,
                                                  BatchPart part = {});

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_ITERATOR_CHAIN_H_
