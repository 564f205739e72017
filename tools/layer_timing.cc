#include "tools/layer_timing.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
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

namespace {

// "  123.4  45%": a rate and its share of `ceiling` (no share without one).
std::string RateAndShare(double rate, double ceiling) {
  if (ceiling <= 0) return absl::StrFormat("%9.1f %5s", rate, "");
  return absl::StrFormat("%9.1f %4.0f%%", rate, 100 * rate / ceiling);
}

}  // namespace

std::string FormatNetTiming(const NetTiming& timing, const CpuPeak* peak) {
  const double fma_peak = peak != nullptr ? peak->fma_gflops : 0;
  const double copy = peak != nullptr ? peak->copy_gbytes : 0;
  std::string out = absl::StrFormat(
      "%-16s %-14s %12s %12s %9s %5s %9s %5s\n", "layer", "type", "forward ms",
      "backward ms", "GFLOP/s", "peak", "GB/s", "copy");
  double flops = 0;
  for (const LayerTiming& layer : timing.layers) {
    const double seconds = (layer.forward_ms + layer.backward_ms) / 1000;
    const double layer_flops = layer.forward_flops + layer.backward_flops;
    flops += layer_flops;
    std::string rates;
    if (seconds > 0 && layer_flops > 0) {
      rates = RateAndShare(layer_flops / seconds / 1e9, fma_peak);
    } else if (seconds > 0 && layer.bytes > 0) {
      rates = absl::StrFormat("%15s %s", "",
                              RateAndShare(layer.bytes / seconds / 1e9, copy));
    }
    absl::StrAppendFormat(&out, "%-16s %-14s %12.3f %12.3f", layer.name,
                          layer.type, layer.forward_ms, layer.backward_ms);
    absl::StrAppend(&out, rates.empty() ? "" : " ", rates, "\n");
  }
  const double both = timing.forward_ms + timing.backward_ms;
  absl::StrAppendFormat(
      &out, "%-31s %12.3f %12.3f %s\n", "total (median pass)",
      timing.forward_ms, timing.backward_ms,
      both > 0 ? RateAndShare(flops / both / 1e6, fma_peak) : std::string());
  absl::StrAppendFormat(
      &out,
      "forward-backward: %.3f ms per batch of %d, %.0f images/s, %.1f MFLOP "
      "per image (medians of %d iterations after %d warm-up)\n",
      both, timing.batch_size,
      both > 0 ? timing.batch_size * 1000.0 / both : 0.0,
      timing.batch_size > 0 ? flops / timing.batch_size / 1e6 : 0.0,
      timing.iterations, timing.warmup);
  return out;
}

}  // namespace tools
}  // namespace umbra
