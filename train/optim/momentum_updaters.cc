#include "train/optim/momentum_updaters.h"

#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {

template class MomentumUpdater<cpu, float, false>;
template class MomentumUpdater<cpu, double, false>;
template class MomentumUpdater<cpu, float, true>;
template class MomentumUpdater<cpu, double, true>;

UMBRA_REGISTER_UPDATER("sgd", SgdUpdater,
                       "SGD with momentum: m = momentum * m - lr * (g + wd * "
                       "w); w += m (cxxnet's sgd).",
                       {"MomentumParam"});
UMBRA_REGISTER_UPDATER("nag", NagUpdater,
                       "Nesterov accelerated gradient in cxxnet's form: w += "
                       "(1 + momentum) * m_new - momentum * m_old.",
                       {"MomentumParam"});

}  // namespace optim
}  // namespace umbra
