// Forward + backward time of each layer type for LeNet- and MLP-sized nodes
// at batch 64, in float: on the CPU (ForwardBackward/...) and, in a
// --config=cuda build, on the gpu (ForwardBackwardGpu/..., each iteration
// ending with cudaDeviceSynchronize, so that it times the GPU's work). Input
// and output are separate nodes, so that every iteration sees the same
// values (in place, an activation would be applied to its own output and
// its gradients would shrink to denormals).
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
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

constexpr index_t kBatch = 64;

struct BenchCase {
  std::string name;
  std::string type;
  ParamKwargs kwargs;
  std::vector<Shape<4>> inputs;
  size_t num_outputs = 1;
};

std::vector<BenchCase> Cases() {
  const Shape<4> hidden = Shape4(kBatch, 1, 1, 500);  // MLP hidden layer
  const Shape<4> conv1 = Shape4(kBatch, 20, 24, 24);  // LeNet conv1 output
  const Shape<4> pool1 = Shape4(kBatch, 20, 12, 12);  // LeNet pool1 output
  const Shape<4> pool2 = Shape4(kBatch, 50, 4, 4);    // LeNet pool2 output
  const Shape<4> logits = Shape4(kBatch, 1, 1, 10);
  // The LeNet the trainer is timed on (train/configs/fashion_mnist_lenet.conf):
  // conv 5x5 pad 2 to 32, max pool 2x2, conv 5x5 pad 2 to 64, max pool 2x2,
  // fc 512, fc 10 on 28x28 images.
  const Shape<4> digits = Shape4(kBatch, 1, 28, 28);
  const Shape<4> lenet_conv1 = Shape4(kBatch, 32, 28, 28);
  const Shape<4> lenet_pool1 = Shape4(kBatch, 32, 14, 14);
  const Shape<4> lenet_conv2 = Shape4(kBatch, 64, 14, 14);
  const ParamKwargs pool_2x2 = {{"kernel_size", "2"}, {"stride", "2"}};
  const ParamKwargs conv_5x5 = {{"kernel_size", "5"}, {"pad", "2"}};
  auto with = [](ParamKwargs kwargs, const char* key, const char* value) {
    kwargs.push_back({key, value});
    return kwargs;
  };
  return {
      {"conv_lenet1_1x32_5x5",
       "conv",
       with(conv_5x5, "nchannel", "32"),
       {digits}},
      {"max_pooling_lenet1_2x2", "max_pooling", pool_2x2, {lenet_conv1}},
      {"conv_lenet2_32x64_5x5",
       "conv",
       with(conv_5x5, "nchannel", "64"),
       {lenet_pool1}},
      {"max_pooling_lenet2_2x2", "max_pooling", pool_2x2, {lenet_conv2}},
      {"avg_pooling_lenet1_2x2", "avg_pooling", pool_2x2, {lenet_conv1}},
      {"sum_pooling_lenet1_2x2", "sum_pooling", pool_2x2, {lenet_conv1}},
      {"fullc_lenet_3136x512",
       "fullc",
       {{"nhidden", "512"}},
       {Shape4(kBatch, 1, 1, 3136)}},
      {"lrn_lenet_pool1", "lrn", {{"local_size", "5"}}, {lenet_pool1}},
      {"batch_norm_lenet_conv1", "batch_norm", {}, {lenet_conv1}},
      {"fullc_784x500",
       "fullc",
       {{"nhidden", "500"}},
       {Shape4(kBatch, 1, 1, 784)}},
      {"fullc_800x500",
       "fullc",
       {{"nhidden", "500"}},
       {Shape4(kBatch, 1, 1, 800)}},
      {"fullc_500x10", "fullc", {{"nhidden", "10"}}, {hidden}},
      {"relu_500", "relu", {}, {hidden}},
      {"relu_conv1", "relu", {}, {conv1}},
      {"sigmoid_500", "sigmoid", {}, {hidden}},
      {"tanh_500", "tanh", {}, {hidden}},
      {"softplus_500", "softplus", {}, {hidden}},
      {"xelu_500", "xelu", {}, {hidden}},
      {"rrelu_500", "rrelu", {}, {hidden}},
      {"prelu_conv1", "prelu", {}, {conv1}},
      {"bias_conv1", "bias", {}, {conv1}},
      {"dropout_500", "dropout", {{"threshold", "0.5"}}, {hidden}},
      {"flatten_pool2", "flatten", {}, {pool2}},
      {"ch_concat_pool1", "ch_concat", {}, {pool1, pool1}},
      {"concat_500_500", "concat", {}, {hidden, hidden}},
      {"split_pool1", "split", {}, {pool1}, 2},
      {"softmax_10", "softmax", {}, {logits}},
      {"l2_loss_10", "l2_loss", {}, {logits}},
      {"lp_loss_10_p1.5", "lp_loss", {{"p", "1.5"}}, {logits}},
      {"multi_logistic_10", "multi_logistic", {}, {logits}},
  };
}

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
void RunCase(benchmark::State& state, const BenchCase& c) {
#ifdef UMBRA_USE_CUDA
  if (!xpu::kDevCPU && GpuDeviceCount() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
#endif
  StandaloneLayer<xpu, float> net(c.type, c.kwargs, c.inputs, c.num_outputs);
  std::mt19937 engine(1);
  for (size_t i = 0; i < net.num_in(); ++i) {
    Fill(net.in(i).data, &engine, -1, 1);
  }
  if (net.layer().is_loss()) {
    const Shape<4>& s = c.inputs[0];
    const bool index = c.type == "softmax";
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
  for (const BenchCase& c : Cases()) {
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
