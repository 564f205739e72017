// CPU instantiation and registration of bias.
#include "layers/bias_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class BiasLayer<cpu, float>;
template class BiasLayer<cpu, double>;

UMBRA_REGISTER_LAYER("bias", BiasLayer);

}  // namespace layers
}  // namespace umbra
