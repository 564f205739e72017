// CPU instantiation and registration of conv.
#include "layers/conv_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class ConvolutionLayer<cpu, float>;
template class ConvolutionLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(ConvolutionParam);

UMBRA_REGISTER_LAYER("conv", ConvolutionLayer);

}  // namespace layers
}  // namespace umbra
