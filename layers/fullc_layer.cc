// CPU instantiation and registration of fullc.
#include "layers/fullc_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class FullConnectLayer<cpu, float>;
template class FullConnectLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(FullcParam);

UMBRA_REGISTER_LAYER("fullc", FullConnectLayer);

}  // namespace layers
}  // namespace umbra
