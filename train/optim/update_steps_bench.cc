// One step of the sgd and adam rules (update_steps.h) on a weight of Arg 0
// elements with all cores: the MLP's fc1 (784 x 256), LeNet's fc1
// (3136 x 512) and a weight larger than the last-level cache. Reported as
// bytes_per_second of the arrays a step reads and writes once each (w, its
// state and g), so that the figure compares with the machine's bandwidth.
//
//   bazel run -c opt //train/optim:update_steps_bench --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "benchmark/benchmark.h"
#include "tensor/tensor.h"
#include "train/optim/update_steps.h"

namespace umbra {
namespace optim {
namespace {

using Vector = TensorContainer<cpu, 1, float>;

// Arg 0: elements. Arrays: how many tensors of that size a step touches.
void SetBytes(benchmark::State& state, int arrays) {
  state.SetBytesProcessed(int64_t(state.iterations()) * state.range(0) *
                          arrays * 2 * int64_t(sizeof(float)));
}

void BM_SgdStep(benchmark::State& state) {
  const Shape<1> shape = Shape1(state.range(0));
  Vector w(shape, 0.5f), m(shape, 0.0f), g(shape, 0.25f);
  for (auto _ : state) {
    ApplyMomentumRule<cpu, float>(w, m, g, /*clip=*/0.0f, /*lr=*/0.01f,
                                  /*wd=*/1e-4f, /*momentum=*/0.9f,
                                  /*nesterov=*/false);
    benchmark::ClobberMemory();
  }
  SetBytes(state, 3);
}

void BM_AdamStep(benchmark::State& state) {
  const Shape<1> shape = Shape1(state.range(0));
  Vector w(shape, 0.5f), m(shape, 0.0f), v(shape, 0.0f), g(shape, 0.25f);
  long t = 0;
  for (auto _ : state) {
    ApplyAdamRule<cpu, float>(w, m, v, g, /*clip=*/0.0f, /*lr=*/0.001f,
                              /*wd=*/0.0f, /*beta1=*/0.9f, /*beta2=*/0.999f,
                              /*epsilon=*/1e-8f, ++t, /*decoupled=*/false);
    benchmark::ClobberMemory();
  }
  SetBytes(state, 4);
}

BENCHMARK(BM_SgdStep)->Arg(784 * 256)->Arg(3136 * 512)->Arg(1 << 24);
BENCHMARK(BM_AdamStep)->Arg(784 * 256)->Arg(3136 * 512)->Arg(1 << 24);

}  // namespace
}  // namespace optim
}  // namespace umbra
