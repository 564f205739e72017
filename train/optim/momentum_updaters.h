// The momentum family: `sgd` (SGD with momentum, cxxnet's sgd) and `nag`
// (Nesterov accelerated gradient, cxxnet's nag). One state tensor per
// weight, "momentum". Keys: MomentumParam (momentum, momentum_schedule,
// base_momentum, final_momentum, saturation_epoch) besides UpdaterParam
// (eta, wd, clip_gradient) and the schedule's lr:*; a layer's `momentum`
// (or `wmat:momentum`) is its weights' own.
//
// Example:
//
//   auto sgd = CreateUpdater<cpu, float>("sgd", {{"eta", "0.1"},
//                                                {"momentum", "0.9"}});
#ifndef UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_
#define UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "train/optim/rule_updater.h"
#include "train/optim/update_steps.h"
#include "train/optim/updater.h"
#include "train/optim/updater_param.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

// nesterov = false: sgd; true: nag.
template <typename xpu, typename DType, bool nesterov>
class MomentumUpdater : public RuleUpdater<xpu, DType, MomentumParam> {
 public:
  static UpdaterTypeInfo Describe() {
    UpdaterTypeInfo info;
    info.description =
        nesterov ? "Nesterov accelerated gradient in cxxnet's form: w += (1 + "
                   "momentum) * m_new - momentum * m_old."
                 : "SGD with momentum: m = momentum * m - lr * (g + wd * w); "
                   "w += m (cxxnet's sgd).";
    info.param_structs = {"MomentumParam"};
    return info;
  }
  std::vector<std::string> StateNames() const override { return {"momentum"}; }

 protected:
  void CheckParams(const MomentumParam& params,
                   const std::string& label) const override {
    if (params.momentum_schedule && params.saturation_epoch == 0) {
      throw OptimError(absl::StrCat(label,
                                    ": momentum_schedule = 1 needs "
                                    "saturation_epoch, the updates its ramp "
                                    "takes (at least 1)"),
                       "momentum_schedule");
    }
  }
  void Step(const UpdaterWeight<xpu, DType>& weight,
            const StepScalars<DType>& s) override {
    const DType momentum = DType(
        this->ParamsOf(weight).MomentumAt(s.t - 1, weight.settings.momentum));
    ApplyMomentumRule<xpu, DType>(weight.data, *weight.state[0], weight.grad,
                                  s.clip, s.lr, s.wd, momentum, nesterov);
  }
};

template <typename xpu, typename DType>
using SgdUpdater = MomentumUpdater<xpu, DType, false>;
template <typename xpu, typename DType>
using NagUpdater = MomentumUpdater<xpu, DType, true>;

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_
