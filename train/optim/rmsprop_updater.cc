#include "train/optim/rmsprop_updater.h"

#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template class RmspropUpdater<cpu, float>;
template class RmspropUpdater<cpu, double>;

UMBRA_REGISTER_UPDATER("rmsprop", RmspropUpdater);

}  // namespace optim
}  // namespace umbra
