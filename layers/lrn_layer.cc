// CPU instantiation and registration of lrn.
#include "layers/lrn_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class LrnLayer<cpu, float>;
template class LrnLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(LrnParam);

UMBRA_REGISTER_LAYER("lrn", LrnLayer);

}  // namespace layers
}  // namespace umbra
