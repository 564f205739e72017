// CPU instantiations and registration of eltwise_sum (and its alias
// elementwise_sum), eltwise_prod and eltwise_max.
#include "layers/eltwise_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

UMBRA_REGISTER_PARAMETER(EltwiseSumParam);

template class EltwiseLayer<cpu, float, EltwiseOp::kSum>;
template class EltwiseLayer<cpu, double, EltwiseOp::kSum>;
template class EltwiseLayer<cpu, float, EltwiseOp::kProd>;
template class EltwiseLayer<cpu, double, EltwiseOp::kProd>;
template class EltwiseLayer<cpu, float, EltwiseOp::kMax>;
template class EltwiseLayer<cpu, double, EltwiseOp::kMax>;

UMBRA_REGISTER_LAYER("eltwise_sum", EltwiseSumLayer);
UMBRA_REGISTER_LAYER("elementwise_sum", EltwiseSumLayer);
UMBRA_REGISTER_LAYER("eltwise_prod", EltwiseProdLayer);
UMBRA_REGISTER_LAYER("eltwise_max", EltwiseMaxLayer);

}  // namespace layers
}  // namespace umbra
