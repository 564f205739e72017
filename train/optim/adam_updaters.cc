#include "train/optim/adam_updaters.h"

#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template class AdamFamilyUpdater<cpu, float, false>;
template class AdamFamilyUpdater<cpu, double, false>;
template class AdamFamilyUpdater<cpu, float, true>;
template class AdamFamilyUpdater<cpu, double, true>;

UMBRA_REGISTER_UPDATER("adam", AdamUpdater);
UMBRA_REGISTER_UPDATER("adamw", AdamWUpdater);

}  // namespace optim
}  // namespace umbra
