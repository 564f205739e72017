// What a fuzzer does with a data set a reader accepted: reads every
// instance (and its extra inputs), as a pass of training would.
#ifndef UMBRA_TOOLS_FUZZ_READ_DATASET_H_
#define UMBRA_TOOLS_FUZZ_READ_DATASET_H_

#include "train/data/dataset.h"

namespace umbra {
namespace tools {

// Reads every instance of `set`; throws what its Read throws.
void ReadEveryInstance(train::Dataset* set);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_FUZZ_READ_DATASET_H_
