#include "train/optim/updater_param.h"

namespace umbra {
namespace optim {

UMBRA_REGISTER_PARAMETER(UpdaterParam);
UMBRA_REGISTER_PARAMETER(MomentumParam);
UMBRA_REGISTER_PARAMETER(AdamParam);
UMBRA_REGISTER_PARAMETER(RMSPropParam);

std::vector<std::string> WeightOwnUpdaterParamKeys() {
  return {"clip_gradient"};
}

WeightSettings ResolveWeightSettings(const layers::WeightParam* settings,
                                     const UpdaterParam& updater) {
  WeightSettings out;
  out.lr = updater.eta;
  out.wd = updater.wd;
  if (settings != nullptr) {
    out.lr = static_cast<double>(settings->lr.value_or(updater.eta)) *
             settings->lr_mult;
    out.wd = static_cast<double>(settings->wd.value_or(updater.wd)) *
             settings->wd_mult;
    out.momentum = settings->momentum;
  }
  return out;
}

}  // namespace optim
}  // namespace umbra
