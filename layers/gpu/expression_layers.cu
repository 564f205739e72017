// gpu instantiations and registration of the layer types that run on the
// expression engine (see README.md): their CPU templates, compiled by nvcc.
#include "layers/activation_layers.h"
#include "layers/bias_layer.h"
#include "layers/dropout_layer.h"
#include "layers/fullc_layer.h"
#include "layers/layer_registry.h"
#include "layers/leaky_relu_layers.h"
#include "layers/loss_layers.h"
#include "layers/shape_layers.h"
#include "tensor/gpu/extension_gpu.h"

namespace umbra {
namespace layers {

template class FullConnectLayer<gpu, float>;
template class FullConnectLayer<gpu, double>;
template class FlattenLayer<gpu, float>;
template class FlattenLayer<gpu, double>;
template class ConcatLayer<gpu, float, 1>;
template class ConcatLayer<gpu, double, 1>;
template class ConcatLayer<gpu, float, 3>;
template class ConcatLayer<gpu, double, 3>;
template class SplitLayer<gpu, float>;
template class SplitLayer<gpu, double>;
template class BiasLayer<gpu, float>;
template class BiasLayer<gpu, double>;
template class DropoutLayer<gpu, float>;
template class DropoutLayer<gpu, double>;
template class ActivationLayer<gpu, float, SoftplusActivation>;
template class ActivationLayer<gpu, double, SoftplusActivation>;
template class XeluLayer<gpu, float>;
template class XeluLayer<gpu, double>;
template class PReluLayer<gpu, float>;
template class PReluLayer<gpu, double>;
template class RReluLayer<gpu, float>;
template class RReluLayer<gpu, double>;
template class LpLossLayer<gpu, float>;
template class LpLossLayer<gpu, double>;
template class L2LossLayer<gpu, float>;
template class L2LossLayer<gpu, double>;
template class MultiLogisticLayer<gpu, float>;
template class MultiLogisticLayer<gpu, double>;

UMBRA_REGISTER_LAYER_DEVICE(gpu, "fullc", FullConnectLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "flatten", FlattenLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "concat", WidthConcatLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "ch_concat", ChannelConcatLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "split", SplitLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "bias", BiasLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "dropout", DropoutLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "softplus", SoftplusLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "xelu", XeluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "prelu", PReluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "rrelu", RReluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "l2_loss", L2LossLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "lp_loss", LpLossLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "multi_logistic", MultiLogisticLayer);

}  // namespace layers
}  // namespace umbra
