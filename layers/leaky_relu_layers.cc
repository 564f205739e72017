// CPU instantiations and registration of prelu and rrelu.
#include "layers/leaky_relu_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class PReluLayer<cpu, float>;
template class PReluLayer<cpu, double>;
template class RReluLayer<cpu, float>;
template class RReluLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(PReluParam);
UMBRA_REGISTER_PARAMETER(RReluParam);

UMBRA_REGISTER_LAYER("prelu", PReluLayer);
UMBRA_REGISTER_LAYER("rrelu", RReluLayer);

}  // namespace layers
}  // namespace umbra
