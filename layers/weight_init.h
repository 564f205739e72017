// Filling a new weight: random weights by WeightParam::random_type, biases
// with init_bias, other weights (a PReLU slope) with a constant, or with
// the constant times U(0, 1).
//
// Example:
//
//   TensorContainer<cpu, 2> wmat(Shape2(500, 784), false);
//   InitWeight(WeightFill::kRandom, settings, /*fan_in=*/784,
//              /*fan_out=*/500, /*constant=*/0, &rnd, wmat.FlatTo1D());
#ifndef UMBRA_LAYERS_WEIGHT_INIT_H_
#define UMBRA_LAYERS_WEIGHT_INIT_H_

#include <cmath>

#include "layers/weight_param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// What a weight starts as.
enum class WeightFill {
  // Drawn as settings.random_type says, from fan_in and fan_out.
  kRandom,
  // settings.init_bias everywhere.
  kBias,
  // The constant the layer declared it with.
  kConstant,
  // constant * U(0, 1) per element (cxxnet's prelu `random_slope`).
  kUniformTimesConstant,
};

// Fills `weight` (any shape, as a flat tensor). fan_in and fan_out are the
// numbers of inputs and outputs each weight connects (for a fully connected
// layer: input width and nhidden).
template <typename xpu, typename DType>
inline void InitWeight(WeightFill fill, const WeightParam& settings,
                       index_t fan_in, index_t fan_out, DType constant,
                       Random<xpu, DType>* rnd, Tensor<xpu, 1, DType> weight) {
  if (fill == WeightFill::kBias) {
    weight = DType(settings.init_bias);
    return;
  }
  if (fill == WeightFill::kConstant) {
    weight = constant;
    return;
  }
  if (fill == WeightFill::kUniformTimesConstant) {
    rnd->SampleUniform(&weight, DType(0), DType(1));
    weight *= constant;
    return;
  }
  const double xavier =
      std::sqrt(6.0 / double(fan_in + fan_out > 0 ? fan_in + fan_out : 1));
  switch (settings.random_type) {
    case kGaussian:
      rnd->SampleGaussian(&weight, DType(0), DType(settings.init_sigma));
      break;
    case kUniform: {
      const double a = settings.init_uniform ? *settings.init_uniform : xavier;
      rnd->SampleUniform(&weight, DType(-a), DType(a));
      break;
    }
    case kXavier:
      rnd->SampleUniform(&weight, DType(-xavier), DType(xavier));
      break;
    case kKaiming:
      rnd->SampleGaussian(
          &weight, DType(0),
          DType(std::sqrt(2.0 / double(fan_in > 0 ? fan_in : 1))));
      break;
  }
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_WEIGHT_INIT_H_
