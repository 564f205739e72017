// Filling a new weight: random weights by WeightParam::random_type, biases
// with init_bias, other weights (a PReLU slope) with a constant, or with
// the constant times U(0, 1).
//
// Example:
//
//   TensorContainer<cpu, 2> wmat(Shape2(500, 784), false);
//   InitWeight(WeightFill::kRandom, settings, FullyConnectedFans(784, 500),
//              /*constant=*/0, &rnd, wmat.FlatTo1D());
#ifndef UMBRA_LAYERS_WEIGHT_INIT_H_
#define UMBRA_LAYERS_WEIGHT_INIT_H_

#include <algorithm>
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

// The unit counts that the random fills read, as cxxnet's RandInitWeight
// (layer/param.h) takes them from each layer.
struct WeightFans {
  // Inputs summed into one output: a fully connected layer's input width;
  // a convolution's input channels per group times the kernel taps.
  index_t in = 1;
  // Outputs of one group: nhidden; a convolution's nchannel / ngroup (cxxnet
  // leaves the taps out).
  index_t out = 1;
  // Outputs one input reaches, counted as cxxnet's kaiming (and PyTorch's
  // fan_out) counts them: nhidden; a convolution's nchannel times taps.
  index_t reach = 1;
};

inline WeightFans FullyConnectedFans(index_t width, index_t nhidden) {
  return {width, nhidden, nhidden};
}

inline WeightFans ConvolutionFans(index_t channels, index_t nchannel,
                                  index_t ngroup, index_t taps) {
  return {channels / ngroup * taps, nchannel / ngroup, nchannel * taps};
}

// Fills `weight` (any shape, as a flat tensor); random fills by
// settings.random_type from `fans`.
template <typename xpu, typename DType>
inline void InitWeight(WeightFill fill, const WeightParam& settings,
                       const WeightFans& fans, DType constant,
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
      std::sqrt(3.0 / double(std::max<index_t>(fans.in + fans.out, 1)));
  switch (settings.random_type) {
    case kGaussian:
      rnd->SampleGaussian(&weight, DType(0), DType(settings.init_sigma));
      break;
    case kUniform: {
      const double a = settings.init_uniform ? *settings.init_uniform : xavier;
      rnd->SampleUniform(&weight, DType(-a), DType(a));
      break;
    }
    case kXavier: {
      // cxxnet's xavier is its uniform: init_uniform sets the range too.
      const double a = settings.init_uniform ? *settings.init_uniform : xavier;
      rnd->SampleUniform(&weight, DType(-a), DType(a));
      break;
    }
    case kKaiming:
      rnd->SampleGaussian(
          &weight, DType(0),
          DType(std::sqrt(2.0 / double(std::max<index_t>(fans.reach, 1)))));
      break;
    case kHe:
      rnd->SampleGaussian(
          &weight, DType(0),
          DType(std::sqrt(2.0 / double(std::max<index_t>(fans.in, 1)))));
      break;
  }
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_WEIGHT_INIT_H_
