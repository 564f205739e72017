// CPU instantiations and registration of the loss layers.
#include "layers/loss_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class SoftmaxLayer<cpu, float>;
template class SoftmaxLayer<cpu, double>;
template class LpLossLayer<cpu, float>;
template class LpLossLayer<cpu, double>;
template class L2LossLayer<cpu, float>;
template class L2LossLayer<cpu, double>;
template class MultiLogisticLayer<cpu, float>;
template class MultiLogisticLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(LossParam);
UMBRA_REGISTER_PARAMETER(LpLossParam);

UMBRA_REGISTER_LAYER("softmax", SoftmaxLayer);
UMBRA_REGISTER_LAYER("l2_loss", L2LossLayer);
UMBRA_REGISTER_LAYER("lp_loss", LpLossLayer);
UMBRA_REGISTER_LAYER("multi_logistic", MultiLogisticLayer);

}  // namespace layers
}  // namespace umbra
