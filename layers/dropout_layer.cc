// CPU instantiation and registration of dropout.
#include "layers/dropout_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class DropoutLayer<cpu, float>;
template class DropoutLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(DropoutParam);

UMBRA_REGISTER_LAYER("dropout", DropoutLayer);

}  // namespace layers
}  // namespace umbra
