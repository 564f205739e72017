#include "tools/layer_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "absl/strings/str_format.h"

namespace umbra {
namespace tools {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

// Whether a layer's Backprop should write its inputs' gradients: not when
// it reads only the net's input, whose gradient nobody uses.
bool PropagatesGradient(const train::LayerDeclaration& layer) {
  for (int node : layer.inputs) {
    if (node != train::kInputNode) return true;
  }
  return false;
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

NetTiming TimeNet(train::Network* net, int iterations, int warmup) {
  const auto& layers = net->layers();
  const auto& declarations = net->net_config().layers;
  const size_t n = layers.size();

  Tensor<cpu, 4, float> input = net->input();
  net->rnd().SampleUniform(&input, -1.0f, 1.0f);
  const Tensor<cpu, 2, float> output = net->Output();
  bool class_labels = true;
  for (const auto& layer : layers) {
    if (layer->is_loss() && layer->type() != "softmax") class_labels = false;
  }
  const index_t batch = output.size(0);
  TensorContainer<cpu, 2, float> labels(
      Shape2(batch, class_labels ? 1 : output.size(1)));
  net->rnd().SampleUniform(&labels, 0.0f, 1.0f);
  if (class_labels) {
    for (index_t i = 0; i < batch; ++i) {
      labels[i][0] = std::min<float>(std::floor(labels[i][0] * output.size(1)),
                                     output.size(1) - 1);
    }
  }
  net->SetLabel("label", labels);

  std::vector<std::vector<double>> forward(n), backward(n);
  std::vector<double> forward_total, backward_total;
  for (int it = 0; it < warmup + iterations; ++it) {
    const bool timed = it >= warmup;
    double pass = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const Clock::time_point start = Clock::now();
      layers[i]->Forward(/*is_train=*/true);
      const double ms = MillisecondsSince(start);
      pass += ms;
      if (timed) forward[i].push_back(ms);
    }
    if (timed) forward_total.push_back(pass);
    for (const auto& layer : layers) layer->ZeroGradients();
    pass = 0.0;
    for (size_t i = n; i-- > 0;) {
      const Clock::time_point start = Clock::now();
      layers[i]->Backprop(PropagatesGradient(declarations[i]));
      const double ms = MillisecondsSince(start);
      pass += ms;
      if (timed) backward[i].push_back(ms);
    }
    if (timed) backward_total.push_back(pass);
  }
  net->ClearLabels();

  NetTiming timing;
  timing.iterations = iterations;
  timing.warmup = warmup;
  timing.batch_size = static_cast<int>(batch);
  for (size_t i = 0; i < n; ++i) {
    timing.layers.push_back({declarations[i].name, declarations[i].type,
                             Median(forward[i]), Median(backward[i])});
  }
  timing.forward_ms = Median(forward_total);
  timing.backward_ms = Median(backward_total);
  return timing;
}

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
