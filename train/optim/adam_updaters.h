// The Adam family: `adam` (Kingma and Ba, bias-corrected, L2 weight decay
// added to the gradient) and `adamw` (Loshchilov and Hutter: the same with
// the weight decay applied to the weight, decoupled from the moments). Two
// state tensors per weight, "m" and "v"; the step count t is the updater's
// progress (num_update + 1). Keys: AdamParam (beta1, beta2, epsilon)
// besides UpdaterParam and the schedule's lr:*.
//
// Differences from cxxnet's adam (updater/adam_updater-inl.hpp):
//   - none in beta1 and beta2: they hold cxxnet's 1 - β (defaults 0.1 and
//     0.001, β1 = 0.9 and β2 = 0.999); the config check warns when a value
//     reads as the usual β (0.5 or more).
//   - cxxnet's adam subtracted wd * w from the gradient (decay with the
//     wrong sign) and never ran the learning-rate schedule; here wd decays
//     and every lr:* key applies.
//
// Example:
//
//   auto adam = CreateUpdater<cpu, float>("adamw", {{"eta", "0.001"},
//                                                   {"wd", "0.01"}});
#ifndef UMBRA_TRAIN_OPTIM_ADAM_UPDATERS_H_
#define UMBRA_TRAIN_OPTIM_ADAM_UPDATERS_H_

#include <string>
#include <vector>

#include "train/optim/rule_updater.h"
#include "train/optim/update_steps.h"
#include "train/optim/updater.h"
#include "train/optim/updater_param.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

// decoupled = false: adam; true: adamw.
template <typename xpu, typename DType, bool decoupled>
class AdamFamilyUpdater : public RuleUpdater<xpu, DType, AdamParam> {
 public:
  static UpdaterTypeInfo Describe() {
    UpdaterTypeInfo info;
    info.description =
        decoupled ? "AdamW: Adam with decoupled weight decay, w -= lr * wd * "
                    "w beside the Adam step."
                  : "Adam with bias correction; wd is L2 decay added to the "
                    "gradient. beta1/beta2 are cxxnet's 1 - beta (defaults "
                    "0.1 and 0.001).";
    info.param_structs = {"AdamParam"};
    return info;
  }
  std::vector<std::string> StateNames() const override { return {"m", "v"}; }

 protected:
  void Step(const UpdaterWeight<xpu, DType>& weight,
            const StepScalars<DType>& s) override {
    const AdamParam& params = this->ParamsOf(weight);
    ApplyAdamRule<xpu, DType>(
        weight.data, *weight.state[0], *weight.state[1], weight.grad, s.clip,
        s.lr, s.wd, DType(1.0 - params.beta1), DType(1.0 - params.beta2),
        DType(params.epsilon), static_cast<long>(s.t), decoupled);
  }
};

template <typename xpu, typename DType>
using AdamUpdater = AdamFamilyUpdater<xpu, DType, false>;
template <typename xpu, typename DType>
using AdamWUpdater = AdamFamilyUpdater<xpu, DType, true>;

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_ADAM_UPDATERS_H_
