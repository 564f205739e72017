// CudnnLayer<xpu, DType, Base>: what every cuDNN layer of this package
// shares. Base is the CPU type's shared base (ConvolutionBase, PoolingBase,
// LossLayer) or the CPU layer itself, whose parameters, shapes and weights
// the gpu layer keeps; CudnnLayer adds the layer's cuDNN handle and
// workspace (those of its context's stream) and the text that names the
// layer and its cuDNN problem in errors.
//
// Example (cudnn_lrn_layer.h):
//   template <typename xpu, typename DType>
//   class CudnnLrnLayer : public CudnnLayer<xpu, DType, LrnLayer<xpu, DType>> {
//     void Forward(bool is_train) override {
//       UMBRA_CUDNN_CHECK(cudnnLRNCrossChannelForward(this->Handle(), ...),
//                         this->Problem());
//     }
//     std::string Descriptors() const override {
//       return desc_.str() + ", " + lrn_desc_.str();
//     }
//   };
#ifndef UMBRA_LAYERS_GPU_CUDNN_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_LAYER_H_

#include <cstddef>
#include <string>
#include <type_traits>

#include "layers/cudnn/cudnn.h"
#include "layers/layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType, typename Base>
class CudnnLayer : public Base {
  static_assert(std::is_same<xpu, gpu>::value,
                "the cuDNN layers run on the gpu; on the cpu, CreateLayer "
                "makes the layers of //layers");
  static_assert(std::is_base_of<Layer<xpu, DType>, Base>::value,
                "CudnnLayer's Base must be a Layer<xpu, DType>");

 protected:
  // The cuDNN handle of the layer's stream.
  cudnnHandle_t Handle() const { return cudnn::Handle(this->context().stream); }
  // The stream's cuDNN workspace, at least `bytes` long.
  void* Workspace(size_t bytes) const {
    return cudnn::Workspace(this->context().stream, bytes);
  }
  // For errors: "layer 'conv1' (conv): " and Descriptors().
  std::string Problem() const {
    return LayerLabel(this->name(), this->type()) + ": " + Descriptors();
  }
  // What the layer's descriptors describe (their str()).
  virtual std::string Descriptors() const = 0;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_LAYER_H_
