// lrn on the gpu: cuDNN's cross-channel LRN, which computes the CPU
// layer's formula (out = in * (knorm + alpha / local_size * window sum of
// squares)^-beta, the window centred and cut at the first and last
// channel), where cuDNN accepts the parameters: local_size <=
// CUDNN_LRN_MAX_N (16), knorm >= CUDNN_LRN_MIN_K, beta >= CUDNN_LRN_MIN_BETA.
// Outside those bounds the CPU layer's chpool expressions run on the gpu.
//
// Example:
//   auto lrn = CreateLayer<gpu, float>("lrn", "norm1", {{"local_size", "5"}});
#ifndef UMBRA_LAYERS_GPU_CUDNN_LRN_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_LRN_LAYER_H_

#include <string>

#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "layers/lrn_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnLrnLayer : public CudnnLayer<xpu, DType, LrnLayer<xpu, DType>> {
  using Base = LrnLayer<xpu, DType>;

 public:
  void Forward(bool is_train) override {
    if (!cudnn_fits_) return Base::Forward(is_train);
    UMBRA_CUDNN_CHECK(
        cudnnLRNCrossChannelForward(
            this->Handle(), lrn_desc_.get(), CUDNN_LRN_CROSS_CHANNEL_DIM1,
            &cudnn::kOne<DType>, desc_.get(), this->in(0).data.dptr_,
            &cudnn::kZero<DType>, desc_.get(), this->out(0).data.dptr_),
        this->Problem());
  }
  void Backprop(bool prop_grad) override {
    if (!cudnn_fits_) return Base::Backprop(prop_grad);
    if (!prop_grad) return;
    UMBRA_CUDNN_CHECK(
        cudnnLRNCrossChannelBackward(
            this->Handle(), lrn_desc_.get(), CUDNN_LRN_CROSS_CHANNEL_DIM1,
            &cudnn::kOne<DType>, desc_.get(), this->out(0).data.dptr_,
            desc_.get(), this->out(0).grad.dptr_, desc_.get(),
            this->in(0).data.dptr_, &cudnn::kZero<DType>, desc_.get(),
            this->in(0).grad.dptr_),
        this->Problem());
  }

 protected:
  void OnSetup() override {
    const LrnParam& p = this->param_;
    cudnn_fits_ = p.local_size <= CUDNN_LRN_MAX_N &&
                  p.knorm >= CUDNN_LRN_MIN_K && p.beta >= CUDNN_LRN_MIN_BETA;
    // The expression path needs the CPU layer's buffers; cuDNN none.
    if (!cudnn_fits_) return Base::OnSetup();
    desc_.Set(cudnn::TypeOf<DType>(), this->in_shapes()[0]);
    lrn_desc_.Set(p.local_size, p.alpha, p.beta, p.knorm);
  }
  std::string Descriptors() const override {
    return desc_.str() + ", " + lrn_desc_.str();
  }

 private:
  // Whether cuDNN accepts the parameters (see the top).
  bool cudnn_fits_ = false;
  // Input and output (the same shape).
  cudnn::TensorDescriptor desc_;
  cudnn::LrnDescriptor lrn_desc_;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_LRN_LAYER_H_
