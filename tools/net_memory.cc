#include "tools/net_memory.h"

#include "absl/strings/str_format.h"

namespace umbra {
namespace tools {

NetMemory EstimateNetMemory(train::Network* net,
                            const optim::Updater<cpu, float>* updater) {
  constexpr int64_t kFloat = sizeof(float);
  // What the net counted from its shapes before allocating (and checked
  // against the device's memory).
  const train::NetTensorBytes& bytes = net->tensor_bytes();
  NetMemory memory;
  memory.weights = bytes.weights;
  memory.gradients = bytes.weights;
  if (updater != nullptr) {
    for (const auto& tensor : updater->StateTensors()) {
      memory.updater_state +=
          static_cast<int64_t>(tensor.data.shape_.Size()) * kFloat;
    }
  }
  // Every node's data and gradient as allocated (in-place layers and
  // copies share theirs).
  memory.activations = bytes.activations;
  return memory;
}

std::string HumanBytes(int64_t bytes) { return train::ByteCountText(bytes); }

std::string FormatNetMemory(const NetMemory& memory, int64_t batch_size) {
  std::string out = absl::StrFormat(
      "memory estimate at batch_size %d (float32; layers' scratch buffers "
      "not counted):\n",
      batch_size);
  auto line = [&](const char* part, int64_t bytes) {
    absl::StrAppendFormat(&out, "  %-16s %12s\n", part, HumanBytes(bytes));
  };
  line("weights", memory.weights);
  line("gradients", memory.gradients);
  line("updater state", memory.updater_state);
  line("activations", memory.activations);
  line("total", memory.total());
  return out;
}

}  // namespace tools
}  // namespace umbra
