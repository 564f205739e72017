// relu, sigmoid and tanh on the gpu: cudnnActivationForward / Backward with
// the interface of ActivationLayer (no parameters, runs in place). Like the
// CPU layer, the gradient is computed from the output, so that in place
// (x and y the same memory, dx and dy too, which cuDNN allows) is exact.
//
// Example:
//   auto relu = CreateLayer<gpu, float>("relu", "relu1", {});
#ifndef UMBRA_LAYERS_GPU_CUDNN_ACTIVATION_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_ACTIVATION_LAYER_H_

#include <string>

#include "layers/activation_layers.h"
#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// The cuDNN mode of an activation of activation_layers.h.
template <typename Activation>
struct CudnnActivationMode;
template <>
struct CudnnActivationMode<ReluActivation> {
  static constexpr cudnnActivationMode_t kMode = CUDNN_ACTIVATION_RELU;
};
template <>
struct CudnnActivationMode<SigmoidActivation> {
  static constexpr cudnnActivationMode_t kMode = CUDNN_ACTIVATION_SIGMOID;
};
template <>
struct CudnnActivationMode<TanhActivation> {
  static constexpr cudnnActivationMode_t kMode = CUDNN_ACTIVATION_TANH;
};

template <typename xpu, typename DType, typename Activation>
class CudnnActivationLayer
    : public CudnnLayer<xpu, DType, ActivationLayer<xpu, DType, Activation>> {
 public:
  void Forward(bool is_train) override {
    UMBRA_CUDNN_CHECK(
        cudnnActivationForward(this->Handle(), act_desc_.get(),
                               &cudnn::kOne<DType>, desc_.get(),
                               this->in(0).data.dptr_, &cudnn::kZero<DType>,
                               desc_.get(), this->out(0).data.dptr_),
        this->Problem());
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    UMBRA_CUDNN_CHECK(
        cudnnActivationBackward(
            this->Handle(), act_desc_.get(), &cudnn::kOne<DType>, desc_.get(),
            this->out(0).data.dptr_, desc_.get(), this->out(0).grad.dptr_,
            desc_.get(), this->in(0).data.dptr_, &cudnn::kZero<DType>,
            desc_.get(), this->in(0).grad.dptr_),
        this->Problem());
  }

 protected:
  void OnSetup() override {
    desc_.Set(cudnn::TypeOf<DType>(), this->in_shapes()[0]);
    act_desc_.Set(CudnnActivationMode<Activation>::kMode);
  }
  std::string Descriptors() const override { return desc_.str(); }

 private:
  // Input and output (the same shape).
  cudnn::TensorDescriptor desc_;
  cudnn::ActivationDescriptor act_desc_;
};

template <typename xpu, typename DType>
using CudnnReluLayer = CudnnActivationLayer<xpu, DType, ReluActivation>;
template <typename xpu, typename DType>
using CudnnSigmoidLayer = CudnnActivationLayer<xpu, DType, SigmoidActivation>;
template <typename xpu, typename DType>
using CudnnTanhLayer = CudnnActivationLayer<xpu, DType, TanhActivation>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_ACTIVATION_LAYER_H_
