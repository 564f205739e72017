// Forward + backward time of each benchmark case of the layer table
// (layers/layer_cases.h: LeNet- and MLP-sized nodes at batch 64), in float:
// on the CPU (ForwardBackward/...) and, in a --config=cuda build, on the gpu
// (ForwardBackwardGpu/..., each iteration ending with cudaDeviceSynchronize,
// so that it times the GPU's work).
//
//   bazel run -c opt //layers:layers_bench -- --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//   bazel run -c opt --config=cuda //layers:layers_gpu_bench --
//       --benchmark_filter=Gpu
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef UMBRA_USE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "benchmark/benchmark.h"
#include "layers/layer.h"
#include "layers/layer_cases.h"
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

// Fills `t` (on any device) with U(lo, hi).
template <typename xpu, int dim>
void Fill(Tensor<xpu, dim, float> t, std::mt19937* engine, float lo, float hi) {
  TensorContainer<cpu, dim, float> host(t.shape_, false);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (index_t i = 0; i < t.shape_.Size(); ++i) host.dptr_[i] = dist(*engine);
  Copy(t, host.view());
}

// Waits for the device's work (nothing to wait for on the CPU).
template <typename xpu>
void Synchronize() {
#ifdef UMBRA_USE_CUDA
  if constexpr (!xpu::kDevCPU) {
    if (cudaDeviceSynchronize() != cudaSuccess) {
      throw std::runtime_error("cudaDeviceSynchronize failed");
    }
  }
#endif
}

template <typename xpu>
void RunCase(benchmark::State& state, const LayerCase& c) {
#ifdef UMBRA_USE_CUDA
  if (!xpu::kDevCPU && GpuDeviceCount() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
#endif
  StandaloneLayer<xpu, float> net(c.type, c.kwargs, c.inputs, c.num_outputs,
                                  c.in_place);
  std::mt19937 engine(1);
  for (size_t i = 0; i < net.num_in(); ++i) {
    Fill(net.in(i).data, &engine, -1, 1);
  }
  if (net.layer().is_loss()) {
    const Shape<4>& s = c.inputs[0];
    const bool index = c.labels == LayerCase::Labels::kClassIndex;
    TensorContainer<cpu, 2> label(Shape2(s[0], index ? 1 : s[3]), false);
    for (index_t i = 0; i < label.size(0); ++i) {
      for (index_t k = 0; k < label.size(1); ++k) {
        label[i][k] = index ? float(i % s[3]) : 0.5f;
      }
    }
    Copy(net.AddLabel("label", label.shape_), label.view());
  } else {
    for (size_t j = 0; j < net.num_out(); ++j) {
      Fill(net.out(j).grad, &engine, -1, 1);
    }
  }
  Synchronize<xpu>();
  for (auto _ : state) {
    net.layer().Forward(true);
    net.layer().Backprop(true);
    Synchronize<xpu>();
    benchmark::DoNotOptimize(net.in(0).grad.dptr_);
    benchmark::ClobberMemory();
  }
  double elements = 0;
  for (const Shape<4>& s : c.inputs) elements += s.Size();
  state.counters["elements/s"] = benchmark::Counter(
      elements * state.iterations(), benchmark::Counter::kIsRate);
}

template <typename xpu>
void Register(const std::string& prefix) {
  for (const LayerCase& c : LayerCases(LayerCase::kBenchmark)) {
    benchmark::RegisterBenchmark(
        (prefix + c.name).c_str(),
        [c](benchmark::State& state) { RunCase<xpu>(state, c); })
        ->Unit(benchmark::kMicrosecond);
  }
}

const bool kRegistered = [] {
  Register<cpu>("ForwardBackward/");
#ifdef UMBRA_USE_CUDA
  Register<gpu>("ForwardBackwardGpu/");
#endif
  return true;
}();

}  // namespace
}  // namespace layers
}  // namespace umbra
