// gpu registration of the layer types that run on cuDNN
// (see README.md): conv, the pooling layers, relu, sigmoid, tanh, lrn,
// batch_norm and softmax.
#include "layers/gpu/cudnn_activation_layer.h"
#include "layers/gpu/cudnn_batch_norm_layer.h"
#include "layers/gpu/cudnn_conv_layer.h"
#include "layers/gpu/cudnn_lrn_layer.h"
#include "layers/gpu/cudnn_pooling_layer.h"
#include "layers/gpu/cudnn_softmax_layer.h"
#include "layers/layer_registry.h"
#include "tensor/gpu/extension_gpu.h"

namespace umbra {
namespace layers {

// Each creator instantiates its class, float and double, here.
UMBRA_REGISTER_LAYER_DEVICE(gpu, "conv", CudnnConvolutionLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "max_pooling", CudnnMaxPoolingLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "avg_pooling", CudnnAvgPoolingLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "sum_pooling", CudnnSumPoolingLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "relu", CudnnReluLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "sigmoid", CudnnSigmoidLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "tanh", CudnnTanhLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "lrn", CudnnLrnLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "batch_norm", CudnnBatchNormLayer);
UMBRA_REGISTER_LAYER_DEVICE(gpu, "softmax", CudnnSoftmaxLayer);

}  // namespace layers
}  // namespace umbra
