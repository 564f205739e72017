// CPU instantiations and registration of the activation layers.
#include "layers/activation_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class ActivationLayer<cpu, float, ReluActivation>;
template class ActivationLayer<cpu, double, ReluActivation>;
template class ActivationLayer<cpu, float, SigmoidActivation>;
template class ActivationLayer<cpu, double, SigmoidActivation>;
template class ActivationLayer<cpu, float, TanhActivation>;
template class ActivationLayer<cpu, double, TanhActivation>;
template class ActivationLayer<cpu, float, SoftplusActivation>;
template class ActivationLayer<cpu, double, SoftplusActivation>;
template class XeluLayer<cpu, float>;
template class XeluLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(XeluParam);

UMBRA_REGISTER_LAYER("relu", ReluLayer);
UMBRA_REGISTER_LAYER("sigmoid", SigmoidLayer);
UMBRA_REGISTER_LAYER("tanh", TanhLayer);
UMBRA_REGISTER_LAYER("softplus", SoftplusLayer);
UMBRA_REGISTER_LAYER("xelu", XeluLayer);

}  // namespace layers
}  // namespace umbra
