// The one table of layer cases that every per-layer harness reads (ggml's
// test-backend-ops model): a case is a layer type with its keys and input
// shapes, and says which harnesses run it - the gradient check in double and
// in float (layers/gradient_check_test.cc), the gpu against the cpu
// (layers/gpu/layers_gpu_test.cc) and the benchmark (layers/layers_bench.cc).
// layers/layer_cases_test.cc checks that every registered type has a case in
// each of the gradient check, the gpu comparison and the benchmark.
//
// Example:
//   for (const LayerCase& c : LayerCases(LayerCase::kGpu)) {
//     StandaloneLayer<gpu, float> net(c.type, c.kwargs, c.inputs,
//                                     c.num_outputs, c.in_place);
//     ...
//   }
#ifndef UMBRA_LAYERS_LAYER_CASES_H_
#define UMBRA_LAYERS_LAYER_CASES_H_

#include <ostream>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct LayerCase {
  // The harnesses that run a case: `harnesses` is a set of these bits.
  enum Harness : unsigned {
    // Backprop against finite differences of Forward, in double.
    kGradientDouble = 1u << 0,
    // The same in float, whose step (1e-2) is only usable where it cannot
    // cross a kink: not max pooling, where it often crosses a tie between
    // two window elements.
    kGradientFloat = 1u << 1,
    // The gpu layer against the cpu layer, float and double.
    kGpu = 1u << 2,
    // Forward + Backprop timed in float on the cpu (and on the gpu in a
    // --config=cuda build).
    kBenchmark = 1u << 3,
  };
  // The labels a loss case is given (every other case: kNone).
  enum class Labels {
    kNone,
    // (batch, 1) class indices in [0, width).
    kClassIndex,
    // (batch, width) targets in [0, 1).
    kTargets,
  };

  // Unique among the cases of each harness; a valid test name suffix for
  // the gradient check and the gpu comparison: "fullc_no_bias".
  std::string name;
  std::string type;
  ParamKwargs kwargs;
  std::vector<Shape<4>> inputs;
  unsigned harnesses = 0;
  size_t num_outputs = 1;
  // The output node is the input node.
  bool in_place = false;
  Labels labels = Labels::kNone;
  // gpu comparison: inputs drawn from {-1, -0.5, 0, 0.5, 1}, so that max
  // pooling meets ties.
  bool ties = false;
  // gpu comparison: Forward(true) draws random numbers (dropout, rrelu),
  // which differ between the devices: compare at test time only.
  bool random_training = false;
};

// The cases that `harness` runs, in table order.
std::vector<LayerCase> LayerCases(LayerCase::Harness harness);

// The case's name (what GoogleTest prints for a parameter).
std::ostream& operator<<(std::ostream& os, const LayerCase& c);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LAYER_CASES_H_
