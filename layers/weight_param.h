// WeightParam: the settings every weighted layer accepts, for all of its
// weights at once (`init_sigma = 0.01`) or for one weight tag
// (`wmat:init_sigma = 0.05`, `bias:wd = 0`, `wmat:lr = 0.1`): how the weight
// is initialised, and the learning-rate, weight-decay and momentum settings
// the updater reads for it.
//
// A layer builds one WeightParam per weight tag: the plain keys first, then
// that tag's prefixed keys on top, whatever their order in the config.
//
// Example:
//
//   // fullc with: init_sigma = 0.01, wmat:init_sigma = 0.05, bias:wd = 0
//   for (const auto& w : layer->Weights()) {
//     const WeightParam& s = *w.settings;
//     float lr = s.lr.value_or(updater_lr) * s.lr_mult;
//     float wd = s.wd.value_or(updater_wd) * s.wd_mult;   // 0 for fc1.bias
//   }
#ifndef UMBRA_LAYERS_WEIGHT_PARAM_H_
#define UMBRA_LAYERS_WEIGHT_PARAM_H_

#include <optional>
#include <string>

#include "param/param.h"

namespace umbra {
namespace layers {

// How random weights (tag wmat and the like, not biases) are drawn.
enum RandomType {
  // N(0, init_sigma^2).
  kGaussian = 0,
  // U(-init_uniform, init_uniform); without init_uniform, as kXavier.
  kUniform = 1,
  // U(-a, a), a = init_uniform, else sqrt(3 / (in + out)): cxxnet's range,
  // with in = inputs per output (conv: channels / ngroup * taps) and out =
  // outputs per group (nhidden, nchannel / ngroup). cxxnet's xavier and
  // uniform are one type.
  kXavier = 2,
  // N(0, 2 / reach), reach = nhidden or nchannel * taps: He et al.'s
  // fan-out, as cxxnet's kaiming.
  kKaiming = 3,
  // N(0, 2 / in): He et al.'s fan-in form, PyTorch's kaiming_normal_
  // default (umbra's own name; cxxnet had no such type).
  kHe = 4,
};

struct WeightParam : public Parameter<WeightParam> {
  int random_type;
  float init_sigma;
  std::optional<float> init_uniform;
  float init_bias;
  std::optional<float> lr;
  std::optional<float> wd;
  std::optional<float> momentum;
  float lr_mult;
  float wd_mult;

  UMBRA_DECLARE_PARAMETER(WeightParam) {
    UMBRA_DECLARE_FIELD(random_type)
        .add_enum("gaussian", kGaussian)
        .add_enum("uniform", kUniform)
        .add_enum("xavier", kXavier)
        .add_enum("kaiming", kKaiming)
        .add_enum("he", kHe)
        .set_default(kGaussian)
        .describe("How weights are initialised (biases use init_bias).");
    UMBRA_DECLARE_FIELD(init_sigma)
        .set_default(0.01f)
        .set_lower_bound(0.0f)
        .describe("Standard deviation for random_type = gaussian.");
    UMBRA_DECLARE_FIELD(init_uniform)
        .set_default(std::nullopt)
        .set_lower_bound(0.0f)
        .describe(
            "Half-width of the range for random_type = uniform or xavier "
            "(as cxxnet); None: sqrt(3 / (fan_in + fan_out)).");
    UMBRA_DECLARE_FIELD(init_bias).set_default(0.0f).describe(
        "Initial value of every bias.");
    UMBRA_DECLARE_FIELD(lr)
        .set_default(std::nullopt)
        .set_lower_bound(0.0f)
        .describe("Learning rate of the weight; None: the updater's.");
    UMBRA_DECLARE_FIELD(wd)
        .set_default(std::nullopt)
        .set_lower_bound(0.0f)
        .describe("Weight decay of the weight; None: the updater's.");
    UMBRA_DECLARE_FIELD(momentum)
        .set_default(std::nullopt)
        .set_range(0.0f, 1.0f)
        .describe(
            "Momentum of the weight (sgd, nag); None: the updater's. "
            "momentum_schedule = 1 overrides it.");
    UMBRA_DECLARE_FIELD(lr_mult)
        .set_default(1.0f)
        .set_lower_bound(0.0f)
        .describe("Factor on the learning rate of the weight.");
    UMBRA_DECLARE_FIELD(wd_mult)
        .set_default(1.0f)
        .set_lower_bound(0.0f)
        .describe("Factor on the weight decay of the weight.");
    UMBRA_DECLARE_ALIAS(lr, eta);
  }
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_WEIGHT_PARAM_H_
