// An estimate of the memory a net needs to train, in bytes: its weights,
// their gradients, the updater's state (momentum, Adam's moments) and the
// activations (every node's data and gradient at the net's batch size).
//
// Example:
//
//   NetMemory memory = EstimateNetMemory(&net, updater.get());
//   std::cout << FormatNetMemory(memory, net.input_shape()[0]);
//
// Contracts: counts what the net and the updater allocate for their
// tensors (float32); layers' private scratch buffers (im2col, dropout
// masks) and the data iterators' batches are not counted, so the real
// figure is somewhat higher.
#ifndef UMBRA_TOOLS_NET_MEMORY_H_
#define UMBRA_TOOLS_NET_MEMORY_H_

#include <cstdint>
#include <string>

#include "train/net/network.h"
#include "train/optim/updater.h"

namespace umbra {
namespace tools {

struct NetMemory {
  int64_t weights = 0;
  int64_t gradients = 0;
  int64_t updater_state = 0;
  int64_t activations = 0;
  int64_t total() const {
    return weights + gradients + updater_state + activations;
  }
};

// `updater` may be null (no updater state).
NetMemory EstimateNetMemory(train::Network* net,
                            const optim::Updater<cpu, float>* updater);

// A table, one line per part and the total, under a heading that names
// the batch size.
std::string FormatNetMemory(const NetMemory& memory, int64_t batch_size);

// 1536 -> "1.50 KiB"; bytes below 1 KiB as "512 B".
std::string HumanBytes(int64_t bytes);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_NET_MEMORY_H_
