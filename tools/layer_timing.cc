#include "tools/layer_timing.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "tools/layer_timing_impl.h"

namespace umbra {
namespace tools {

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

template NetTiming TimeNet<cpu>(train::Network* net, int iterations,
                                int warmup);

std::string FormatNetTiming(const NetTiming& timing) {
  std::string out = absl::StrFormat("%-16s %-14s %12s %12s\n", "layer", "type",
                                    "forward ms", "backward ms");
  for (const LayerTiming& layer : timing.layers) {
    absl::StrAppendFormat(&out, "%-16s %-14s %12.3f %12.3f\n", layer.name,
                          layer.type, layer.forward_ms, layer.backward_ms);
  }
  absl::StrAppendFormat(&out, "%-31s %12.3f %12.3f\n", "total (median pass)",
                        timing.forward_ms, timing.backward_ms);
  const double both = timing.forward_ms + timing.backward_ms;
  absl::StrAppendFormat(
      &out,
      "forward-backward: %.3f ms per batch of %d, %.0f images/s "
      "(medians of %d iterations after %d warm-up)\n",
      both, timing.batch_size,
      both > 0 ? timing.batch_size * 1000.0 / both : 0.0, timing.iterations,
      timing.warmup);
  return out;
}

}  // namespace tools
}  // namespace umbra
