// Per-layer timing of a net, like `caffe time`: forward and backward passes
// on random input (and random labels for the loss layers), each layer timed
// on its own, the medians over the iterations reported. The net may be on
// the cpu (:layer_timing) or, in --config=cuda builds, on the gpu
// (:layer_timing_gpu).
//
// Example:
//
//   NetTiming timing = TimeNet(built.net.get(), /*iterations=*/10,
//                              /*warmup=*/1);
//   std::cout << FormatNetTiming(timing);
//
// Contracts: the input is uniform in [-1, 1); labels are class indices in
// [0, outputs) when every loss layer is softmax, else targets in [0, 1)
// as wide as the net's output. Weight gradients are cleared before every
// backward pass (untimed). The net's weights are not updated. On the gpu
// the device is synchronised before and after each measurement, so a
// layer's time is that of its kernels, not of their launches.
#ifndef UMBRA_TOOLS_LAYER_TIMING_H_
#define UMBRA_TOOLS_LAYER_TIMING_H_

#include <string>
#include <vector>

#include "tools/cpu_peak.h"
#include "train/net/network.h"

namespace umbra {
namespace tools {

struct LayerTiming {
  std::string name;
  std::string type;
  // Medians over the timed iterations, in milliseconds.
  double forward_ms = 0.0;
  double backward_ms = 0.0;
  // Floating-point operations of a forward and a backward pass (2 per
  // multiply-add; Layer::ForwardMultiplyAdds), 0 for a layer whose time is
  // its memory traffic ...
  double forward_flops = 0.0;
  double backward_flops = 0.0;
  // ... which is then at least these bytes, forward and backward together:
  // its inputs read and outputs written, then the output gradients and
  // inputs read and the input gradients written.
  double bytes = 0.0;
};

struct NetTiming {
  std::vector<LayerTiming> layers;
  // Medians of whole passes, in milliseconds.
  double forward_ms = 0.0;
  double backward_ms = 0.0;
  int iterations = 0;
  int warmup = 0;
  int batch_size = 0;
};

// Runs `warmup` untimed and then `iterations` (>= 1) timed passes.
template <typename xpu>
NetTiming TimeNet(train::BasicNetwork<xpu>* net, int iterations, int warmup);

// The table: one line per layer, then the totals and images per second.
// With the CPU's measured `peak`, also each layer's share of it: GFLOP/s
// against the FMA peak for arithmetic layers, GB/s against the copy
// bandwidth for the others.
std::string FormatNetTiming(const NetTiming& timing,
                            const CpuPeak* peak = nullptr);

// The median of `values` (the mean of the middle two for an even count);
// 0 for none.
double Median(std::vector<double> values);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_LAYER_TIMING_H_
