// The momentum family: `sgd` (SGD with momentum, cxxnet's sgd) and `nag`
// (Nesterov accelerated gradient, cxxnet's nag). One state tensor per
// weight, "momentum". Keys: MomentumParam (momentum) besides UpdaterParam
// (eta, wd, clip_gradient) and the schedule's lr:*.
//
// Example:
//
//   auto sgd = CreateUpdater<cpu, float>("sgd", {{"eta", "0.1"},
//                                                {"momentum", "0.9"}});
#ifndef UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_
#define UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_

#include <string>
#include <vector>

#include "train/optim/update_steps.h"
#include "train/optim/updater.h"
#include "train/optim/updater_param.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

// nesterov = false: sgd; true: nag.
template <typename xpu, typename DType, bool nesterov>
class MomentumUpdater : public Updater<xpu, DType> {
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
  const MomentumParam& param() const { return param_; }

 protected:
  ParamKwargs SetParams(const ParamKwargs& kwargs) override {
    return InitKnown(&param_, kwargs, this->Label());
  }
  std::vector<std::string> OwnKeys() const override {
    return KeysOf<MomentumParam>();
  }
  void Step(const UpdaterWeight<xpu, DType>& weight,
            const StepScalars<DType>& s) override {
    ApplyMomentumRule<xpu, DType>(weight.data, *weight.state[0], weight.grad,
                                  s.clip, s.lr, s.wd, DType(param_.momentum),
                                  nesterov);
  }

 private:
  MomentumParam param_;
};

template <typename xpu, typename DType>
using SgdUpdater = MomentumUpdater<xpu, DType, false>;
template <typename xpu, typename DType>
using NagUpdater = MomentumUpdater<xpu, DType, true>;

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_MOMENTUM_UPDATERS_H_
