#include "train/optim/adam_updaters.h"

#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template class AdamFamilyUpdater<cpu, float, false>;
template class AdamFamilyUpdater<cpu, double, false>;
template class AdamFamilyUpdater<cpu, float, true>;
template class AdamFamilyUpdater<cpu, double, true>;

UMBRA_REGISTER_UPDATER("adam", AdamUpdater,
                       "Adam with bias correction; wd is L2 decay added to "
                       "the gradient. beta1/beta2 are the standard decay "
                       "rates (cxxnet's keys held 1 - beta).",
                       {"AdamParam"});
UMBRA_REGISTER_UPDATER("adamw", AdamWUpdater,
                       "AdamW: Adam with decoupled weight decay, w -= lr * "
                       "wd * w beside the Adam step.",
                       {"AdamParam"});

}  // namespace optim
}  // namespace umbra
