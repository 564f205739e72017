// `rmsprop` (Tieleman and Hinton): the gradient divided by the root of a
// moving mean of its square. One state tensor per weight, "mean_square".
// Keys: RMSPropParam (rho, epsilon) besides UpdaterParam and the
// schedule's lr:*. No momentum term.
//
// Example:
//
//   auto rmsprop = CreateUpdater<cpu, float>("rmsprop", {{"eta", "0.001"},
//                                                        {"rho", "0.9"}});
#ifndef UMBRA_TRAIN_OPTIM_RMSPROP_UPDATER_H_
#define UMBRA_TRAIN_OPTIM_RMSPROP_UPDATER_H_

#include <string>
#include <vector>

#include "train/optim/rule_updater.h"
#include "train/optim/update_steps.h"
#include "train/optim/updater.h"
#include "train/optim/updater_param.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template <typename xpu, typename DType>
class RmspropUpdater : public RuleUpdater<xpu, DType, RMSPropParam> {
 public:
  static UpdaterTypeInfo Describe() {
    UpdaterTypeInfo info;
    info.description =
        "RMSProp: v = rho * v + (1 - rho) * G^2; w -= lr * G / (sqrt(v) + "
        "epsilon).";
    info.param_structs = {"RMSPropParam"};
    return info;
  }
  std::vector<std::string> StateNames() const override {
    return {"mean_square"};
  }

 protected:
  void Step(const UpdaterWeight<xpu, DType>& weight,
            const StepScalars<DType>& s) override {
    const RMSPropParam& params = this->ParamsOf(weight);
    ApplyRmspropRule<xpu, DType>(weight.data, *weight.state[0], weight.grad,
                                 s.clip, s.lr, s.wd, DType(params.rho),
                                 DType(params.epsilon));
  }
};

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_RMSPROP_UPDATER_H_
