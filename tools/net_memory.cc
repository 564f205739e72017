#include "tools/net_memory.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace umbra {
namespace tools {

NetMemory EstimateNetMemory(train::Network* net,
                            const optim::Updater<cpu, float>* updater) {
  constexpr int64_t kFloat = sizeof(float);
  NetMemory memory;
  const int64_t parameters = net->NumParameters();
  memory.weights = parameters * kFloat;
  memory.gradients = parameters * kFloat;
  if (updater != nullptr) {
    for (const auto& tensor : updater->StateTensors()) {
      memory.updater_state +=
          static_cast<int64_t>(tensor.data.shape_.Size()) * kFloat;
    }
  }
  // Every node once (in-place layers share theirs): data and gradient.
  int64_t values = static_cast<int64_t>(net->input_shape().Size());
  std::set<int> counted = {train::kInputNode};
  const auto& declarations = net->net_config().layers;
  for (size_t i = 0; i < declarations.size(); ++i) {
    const auto& shapes = net->layers()[i]->out_shapes();
    for (size_t j = 0; j < declarations[i].outputs.size() && j < shapes.size();
         ++j) {
      if (counted.insert(declarations[i].outputs[j]).second) {
        values += static_cast<int64_t>(shapes[j].Size());
      }
    }
  }
  memory.activations = 2 * values * kFloat;
  return memory;
}

std::string HumanBytes(int64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = bytes / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 3) {
    value /= 1024.0;
    ++unit;
  }
  return absl::StrFormat("%.2f %s", value, units[unit]);
}

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
