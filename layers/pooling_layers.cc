// CPU instantiations and registration of the pooling layers.
#include "layers/pooling_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class PoolingLayer<cpu, float, MaxPooling>;
template class PoolingLayer<cpu, double, MaxPooling>;
template class PoolingLayer<cpu, float, AvgPooling>;
template class PoolingLayer<cpu, double, AvgPooling>;
template class PoolingLayer<cpu, float, SumPooling>;
template class PoolingLayer<cpu, double, SumPooling>;

UMBRA_REGISTER_PARAMETER(PoolingParam);

UMBRA_REGISTER_LAYER("max_pooling", MaxPoolingLayer);
UMBRA_REGISTER_LAYER("avg_pooling", AvgPoolingLayer);
UMBRA_REGISTER_LAYER("sum_pooling", SumPoolingLayer);

}  // namespace layers
}  // namespace umbra
