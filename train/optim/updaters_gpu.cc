// Every updater for the gpu, in float (--config=cuda builds). The classes
// compile here with g++; their rules are the gpu instantiations of
// update_steps.cu.
#include "train/optim/adam_updaters.h"
#include "train/optim/momentum_updaters.h"
#include "train/optim/rmsprop_updater.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

UMBRA_REGISTER_UPDATER_DEVICE(gpu, "sgd", SgdUpdater);
UMBRA_REGISTER_UPDATER_DEVICE(gpu, "nag", NagUpdater);
UMBRA_REGISTER_UPDATER_DEVICE(gpu, "adam", AdamUpdater);
UMBRA_REGISTER_UPDATER_DEVICE(gpu, "adamw", AdamWUpdater);
UMBRA_REGISTER_UPDATER_DEVICE(gpu, "rmsprop", RmspropUpdater);

}  // namespace optim
}  // namespace umbra
