// gpu registration of the layer types that run on the expression engine
// (see README.md): their CPU templates, compiled by nvcc. The losses among
// them are in loss_layers.cu.
#include "layers/activation_layers.h"
#include "layers/bias_layer.h"
#include "layers/dropout_layer.h"
#include "layers/eltwise_layers.h"
#include "layers/fixconn_layer.h"
#include "layers/fullc_layer.h"
#include "layers/insanity_pooling_layer.h"
#include "layers/layer_registry.h"
#include "layers/leaky_relu_layers.h"
#include "layers/shape_layers.h"
#include "tensor/gpu/extension_gpu.h"

namespace umbra {
namespace layers {

// Each creator instantiates its class, float and double, here.
UMBRA_REGISTER_LAYER_DEVICE(gpu, "fullc", FullConnectLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "fixconn", FixConnLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "insanity_max_pooling",
                            InsanityMaxPoolingLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "flatten", FlattenLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "concat", WidthConcatLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "ch_concat", ChannelConcatLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "split", SplitLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "eltwise_sum", EltwiseSumLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "elementwise_sum", EltwiseSumLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "eltwise_prod", EltwiseProdLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "eltwise_max", EltwiseMaxLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "bias", BiasLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "dropout", DropoutLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "softplus", SoftplusLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "xelu", XeluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "prelu", PReluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "rrelu", RReluLayer);

}  // namespace layers
}  // namespace umbra
