// CPU instantiation and registration of batch_norm.
#include "layers/batch_norm_layer.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class BatchNormLayer<cpu, float>;
template class BatchNormLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(BatchNormParam);

UMBRA_REGISTER_LAYER("batch_norm", BatchNormLayer);

}  // namespace layers
}  // namespace umbra
