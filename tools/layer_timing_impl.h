// TimeNet's definition (tools/layer_timing.h), included only where it is
// instantiated: layer_timing.cc for the cpu, layer_timing_gpu.cc for the
// gpu (--config=cuda builds).
#ifndef UMBRA_TOOLS_LAYER_TIMING_IMPL_H_
#define UMBRA_TOOLS_LAYER_TIMING_IMPL_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "tensor/tensor.h"
#include "tools/layer_timing.h"
#include "train/net/network.h"

namespace umbra {
namespace tools {
namespace internal {

// Blocks until device xpu has done all the work queued so far. The cpu's
// work is done when its calls return; the gpu's version is in
// layer_timing_gpu.cc.
template <typename xpu>
void WaitForDevice();
template <>
inline void WaitForDevice<cpu>() {}
template <>
void WaitForDevice<gpu>();

// The milliseconds `run` takes on device xpu, the work it queues included.
template <typename xpu, typename Run>
double DeviceMilliseconds(Run run) {
  using Clock = std::chrono::steady_clock;
  WaitForDevice<xpu>();
  const Clock::time_point start = Clock::now();
  run();
  WaitForDevice<xpu>();
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

// Whether a layer's Backprop should write its inputs' gradients: not when
// it reads only the net's input, whose gradient nobody uses.
inline bool PropagatesGradient(const train::LayerDeclaration& layer) {
  for (int node : layer.inputs) {
    if (node != train::kInputNode) return true;
  }
  return false;
}

}  // namespace internal

template <typename xpu>
NetTiming TimeNet(train::BasicNetwork<xpu>* net, int iterations, int warmup) {
  const auto& layers = net->layers();
  const auto& declarations = net->net_config().layers;
  const size_t n = layers.size();

  Tensor<xpu, 4, float> input = net->input();
  net->rnd().SampleUniform(&input, -1.0f, 1.0f);
  const Tensor<xpu, 2, float> output = net->Output();
  bool class_labels = true;
  for (const auto& layer : layers) {
    if (layer->is_loss() && layer->type() != "softmax") class_labels = false;
  }
  const index_t batch = output.size(0);
  TensorContainer<xpu, 2, float> labels(
      Shape2(batch, class_labels ? 1 : output.size(1)));
  net->rnd().SampleUniform(&labels, 0.0f, 1.0f);
  if (class_labels) {
    TensorContainer<cpu, 2, float> classes(labels.shape_);
    Copy(classes, labels);
    for (index_t i = 0; i < batch; ++i) {
      classes[i][0] = std::min<float>(
          std::floor(classes[i][0] * output.size(1)), output.size(1) - 1);
    }
    Copy(labels, classes);
  }
  net->SetLabel("label", labels);

  std::vector<std::vector<double>> forward(n), backward(n);
  std::vector<double> forward_total, backward_total;
  for (int it = 0; it < warmup + iterations; ++it) {
    const bool timed = it >= warmup;
    double pass = 0.0;
    for (size_t i = 0; i < n; ++i) {
      // A relu that the layer before it computes takes no time of its own.
      const double ms = net->fused_into_previous(i)
                            ? 0.0
                            : internal::DeviceMilliseconds<xpu>([&] {
                                layers[i]->Forward(/*is_train=*/true);
                              });
      pass += ms;
      if (timed) forward[i].push_back(ms);
    }
    if (timed) forward_total.push_back(pass);
    for (const auto& layer : layers) layer->ZeroGradients();
    pass = 0.0;
    for (size_t i = n; i-- > 0;) {
      const double ms =
          net->fused_into_previous(i)
              ? 0.0
              : internal::DeviceMilliseconds<xpu>([&] {
                  layers[i]->Backprop(
                      internal::PropagatesGradient(declarations[i]));
                });
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
    LayerTiming layer{declarations[i].name,
                      net->fused_into_previous(i)
                          ? declarations[i].type + " (fused)"
                          : declarations[i].type,
                      Median(forward[i]), Median(backward[i])};
    const bool propagates = internal::PropagatesGradient(declarations[i]);
    const double multiply_adds = layers[i]->ForwardMultiplyAdds();
    layer.forward_flops = 2 * multiply_adds;
    layer.backward_flops = 2 * multiply_adds * (propagates ? 2 : 1);
    if (multiply_adds == 0) {
      double in = 0, out = 0;
      for (const Shape<4>& shape : layers[i]->in_shapes()) in += shape.Size();
      for (const Shape<4>& shape : layers[i]->out_shapes()) {
        out += shape.Size();
      }
      layer.bytes = sizeof(float) * (2 * in + 2 * out + (propagates ? in : 0));
    }
    timing.layers.push_back(layer);
  }
  timing.forward_ms = Median(forward_total);
  timing.backward_ms = Median(backward_total);
  return timing;
}

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_LAYER_TIMING_IMPL_H_
