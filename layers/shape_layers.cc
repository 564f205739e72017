// CPU instantiations and registration of flatten, concat, ch_concat, split.
#include "layers/shape_layers.h"

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

template class FlattenLayer<cpu, float>;
template class FlattenLayer<cpu, double>;
template class ConcatLayer<cpu, float, 1>;
template class ConcatLayer<cpu, double, 1>;
template class ConcatLayer<cpu, float, 3>;
template class ConcatLayer<cpu, double, 3>;
template class SplitLayer<cpu, float>;
template class SplitLayer<cpu, double>;

UMBRA_REGISTER_LAYER("flatten", FlattenLayer);
UMBRA_REGISTER_LAYER("concat", WidthConcatLayer);
UMBRA_REGISTER_LAYER("ch_concat", ChannelConcatLayer);
UMBRA_REGISTER_LAYER("split", SplitLayer);

}  // namespace layers
}  // namespace umbra
