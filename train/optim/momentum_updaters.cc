#include "train/optim/momentum_updaters.h"

#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template class MomentumUpdater<cpu, float, false>;
template class MomentumUpdater<cpu, double, false>;
template class MomentumUpdater<cpu, float, true>;
template class MomentumUpdater<cpu, double, true>;

UMBRA_REGISTER_UPDATER("sgd", SgdUpdater);
UMBRA_REGISTER_UPDATER("nag", NagUpdater);

}  // namespace optim
}  // namespace umbra
