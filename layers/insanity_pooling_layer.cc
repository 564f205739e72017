// CPU instantiation and registration of insanity_max_pooling.
#include "layers/insanity_pooling_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class InsanityMaxPoolingLayer<cpu, float>;
template class InsanityMaxPoolingLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(InsanityPoolingParam);

UMBRA_REGISTER_LAYER("insanity_max_pooling", InsanityMaxPoolingLayer);

}  // namespace layers
}  // namespace umbra
