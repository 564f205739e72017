// The parameter structs of the updaters: UpdaterParam, read by every
// updater, and one struct per family for the rest. Key names are cxxnet's
// where cxxnet had them (eta, wd, momentum, clip_gradient, beta1, beta2).
//
// Per-weight overrides are not here: a layer's WeightParam (layers/
// weight_param.h) holds `lr`/`eta`, `wd`, `momentum`, `lr_mult` and
// `wd_mult` for each weight tag (`wmat:lr = 0.1`, `bias:wd = 0`), and
// ResolveWeightSettings merges them over UpdaterParam. A weight's own
// values of the other keys (`beta1`, `lr:step` inside a layer) are a
// parameter set of their own (Updater::SetWeightSettings).
//
// Example:
//
//   UpdaterParam common;
//   common.Init({{"eta", "0.1"}, {"wd", "0.0005"}});
//   WeightSettings s = ResolveWeightSettings(layer_settings, common);
#ifndef UMBRA_TRAIN_OPTIM_UPDATER_PARAM_H_
#define UMBRA_TRAIN_OPTIM_UPDATER_PARAM_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layers/weight_param.h"
#include "param/param.h"

namespace umbra {
namespace optim {

struct UpdaterParam : public Parameter<UpdaterParam> {
  float eta;
  float wd;
  float clip_gradient;

  UMBRA_DECLARE_PARAMETER(UpdaterParam) {
    UMBRA_DECLARE_FIELD(eta).set_default(0.01f).set_lower_bound(0.0f).describe(
        "Base learning rate of every weight without its own lr/eta.");
    UMBRA_DECLARE_FIELD(wd).set_default(0.0f).set_lower_bound(0.0f).describe(
        "Weight decay of every weight without its own wd.");
    UMBRA_DECLARE_FIELD(clip_gradient)
        .set_default(0.0f)
        .set_lower_bound(0.0f)
        .describe(
            "When > 0, each gradient element is clipped to [-c, c] and a NaN "
            "element becomes 0 (cxxnet); 0: no clipping.");
    UMBRA_DECLARE_ALIAS(eta, lr);
  }
};

// sgd and nag. With momentum_schedule, cxxnet's ramp: the momentum of
// every weight (a layer's own too) is, at update t (from 0),
//   base_momentum + (final_momentum - base_momentum) * min(t, S) / S
// with S = saturation_epoch, counted in updates as cxxnet's epochs were.
struct MomentumParam : public Parameter<MomentumParam> {
  float momentum;
  bool momentum_schedule;
  float base_momentum;
  float final_momentum;
  int saturation_epoch;

  UMBRA_DECLARE_PARAMETER(MomentumParam) {
    UMBRA_DECLARE_FIELD(momentum)
        .set_default(0.9f)
        .set_range(0.0f, 1.0f)
        .describe("Momentum (0: plain gradient descent).");
    UMBRA_DECLARE_FIELD(momentum_schedule)
        .set_default(false)
        .describe(
            "Ramp every weight's momentum from base_momentum to "
            "final_momentum over saturation_epoch updates (cxxnet).");
    UMBRA_DECLARE_FIELD(base_momentum)
        .set_default(0.5f)
        .set_range(0.0f, 1.0f)
        .describe("The momentum of the first update, with momentum_schedule.");
    UMBRA_DECLARE_FIELD(final_momentum)
        .set_default(0.9f)
        .set_range(0.0f, 1.0f)
        .describe("The momentum from saturation_epoch updates on.");
    UMBRA_DECLARE_FIELD(saturation_epoch)
        .set_default(0)
        .set_lower_bound(0)
        .describe(
            "Updates over which momentum_schedule ramps the momentum; at "
            "least 1 with momentum_schedule = 1.");
  }

  // The momentum of update `t` (from 0) of a weight whose own momentum is
  // `own` (nullopt: none).
  double MomentumAt(std::int64_t t, std::optional<float> own) const {
    if (!momentum_schedule) return own.value_or(momentum);
    const double done =
        static_cast<double>(std::min<std::int64_t>(t, saturation_epoch)) /
        saturation_epoch;
    return base_momentum + (final_momentum - base_momentum) * done;
  }
};

// adam and adamw: beta1 and beta2 hold cxxnet's meaning, the weight of the
// new gradient in each moving average: one minus the decay rates β1, β2 of
// Kingma and Ba (and PyTorch). The defaults 0.1 and 0.001 are β1 = 0.9 and
// β2 = 0.999; PyTorch's betas=(0.9, 0.999) are written beta1 = 0.1 and
// beta2 = 0.001 here.
struct AdamParam : public Parameter<AdamParam> {
  float beta1;
  float beta2;
  float epsilon;

  UMBRA_DECLARE_PARAMETER(AdamParam) {
    UMBRA_DECLARE_FIELD(beta1)
        .set_default(0.1f)
        .set_range(0.0f, 1.0f)
        .describe(
            "Weight of the new gradient in the first-moment average, as "
            "cxxnet: 1 - the usual beta1 (0.1 is beta1 = 0.9 elsewhere).");
    UMBRA_DECLARE_FIELD(beta2)
        .set_default(0.001f)
        .set_range(0.0f, 1.0f)
        .describe(
            "Weight of the new squared gradient in the second-moment average, "
            "as cxxnet: 1 - the usual beta2 (0.001 is beta2 = 0.999).");
    UMBRA_DECLARE_FIELD(epsilon)
        .set_default(1e-8f)
        .set_lower_bound(0.0f)
        .describe("Added to the root of the corrected second moment.");
  }
};

// rmsprop.
struct RMSPropParam : public Parameter<RMSPropParam> {
  float rho;
  float epsilon;

  UMBRA_DECLARE_PARAMETER(RMSPropParam) {
    UMBRA_DECLARE_FIELD(rho)
        .set_default(0.9f)
        .set_range(0.0f, 1.0f)
        .describe("Decay rate of the mean square of the gradient.");
    UMBRA_DECLARE_FIELD(epsilon)
        .set_default(1e-8f)
        .set_lower_bound(0.0f)
        .describe("Added to the root mean square.");
  }
};

// The keys of UpdaterParam that a weight may have of its own
// (Updater::SetWeightSettings): clip_gradient. Its eta and wd are its
// layer's (WeightParam), merged by ResolveWeightSettings.
std::vector<std::string> WeightOwnUpdaterParamKeys();

// The learning rate, weight decay and momentum one weight is trained with.
struct WeightSettings {
  double lr = 0.0;
  double wd = 0.0;
  // The layer's own (sgd, nag); nullopt: the updater's.
  std::optional<float> momentum;
};

// The layer's per-weight settings merged over the updater's:
//   lr = (settings->lr or updater.eta) * settings->lr_mult
//   wd = (settings->wd or updater.wd) * settings->wd_mult
//   momentum = settings->momentum
// A null `settings` takes the updater's values.
WeightSettings ResolveWeightSettings(const layers::WeightParam* settings,
                                     const UpdaterParam& updater);

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_UPDATER_PARAM_H_
