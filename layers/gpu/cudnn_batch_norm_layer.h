// batch_norm on the gpu. Training (Forward(true) and the Backprop after it)
// runs on cuDNN's spatial batch normalisation, per channel of the CPU
// layer's (batch, channels, inner) view; test time, training with
// use_global_stats, and training with sync_bn on a batch split over ranks
// (whose statistics cuDNN cannot sum inside its one call) run the CPU
// layer's expressions on the gpu. What
// cuDNN cannot do as the CPU layer does is worked around here:
//   - cuDNN's running variance is the unbiased batch variance; the CPU
//     layer averages the biased one. The moving averages are updated here
//     from the batch mean and the 1 / sqrt(var + eps) cuDNN saves.
//   - cuDNN does not promise in-place batch norm, and its backward needs
//     the input: when in place, Forward keeps a copy of the input, and the
//     input gradient goes through a scratch buffer (as it does when
//     Backprop is not to write it).
//
// Example:
//   auto bn = CreateLayer<gpu, float>("batch_norm", "bn1",
//                                     {{"bn_momentum", "0.9"}});
#ifndef UMBRA_LAYERS_GPU_CUDNN_BATCH_NORM_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_BATCH_NORM_LAYER_H_

#include <string>

#include "layers/batch_norm_layer.h"
#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnBatchNormLayer
    : public CudnnLayer<xpu, DType, BatchNormLayer<xpu, DType>> {
  using Base = BatchNormLayer<xpu, DType>;

 public:
  void Forward(bool is_train) override {
    if (!is_train || this->Synced() || this->param_.use_global_stats) {
      return Base::Forward(is_train);
    }
    this->trained_ = true;
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    if (this->InPlace()) Copy(input_copy_.view(), in, this->context().stream);
    UMBRA_CUDNN_CHECK(
        cudnnBatchNormalizationForwardTraining(
            this->Handle(), CUDNN_BATCHNORM_SPATIAL, &cudnn::kOne<DType>,
            &cudnn::kZero<DType>, desc_.get(), Input(), desc_.get(),
            this->out(0).data.dptr_, channel_desc_.get(),
            this->weight(this->gamma_).dptr_, this->weight(this->beta_).dptr_,
            0.0, nullptr, nullptr, Eps(), this->mean_.dptr_,
            this->inv_std_.dptr_),
        this->Problem());
    // var = max(0, 1 / inv_std^2 - eps): the biased batch variance (see the
    // top). Where it is far below eps the subtraction can round below 0,
    // which the CPU layer's variance never is. 0 comes first so that a NaN
    // stays NaN (maximum returns its second operand then).
    const DType keep = DType(this->param_.bn_momentum);
    Tensor<xpu, 1, DType> moving_mean = this->state(this->moving_mean_);
    Tensor<xpu, 1, DType> moving_var = this->state(this->moving_var_);
    moving_mean =
        moving_mean * scalar(keep) + this->mean_ * scalar(DType(1) - keep);
    moving_var = moving_var * scalar(keep) +
                 F<::umbra::op::maximum>(
                     DType(0),
                     scalar(DType(1)) / F<::umbra::op::square>(this->inv_std_) -
                         scalar(DType(Eps()))) *
                     scalar(DType(1) - keep);
  }

  void Backprop(bool prop_grad) override {
    if (!this->trained_ || this->Synced()) return Base::Backprop(prop_grad);
    // xhat_ serves test time only: in training it is free for the scratch
    // input gradient.
    const bool direct = prop_grad && !this->InPlace();
    DType* in_grad = direct ? this->in(0).grad.dptr_ : this->xhat_.dptr_;
    // The input gradient is written (beta 0), gamma's and beta's are added
    // to (beta 1).
    UMBRA_CUDNN_CHECK(
        cudnnBatchNormalizationBackward(
            this->Handle(), CUDNN_BATCHNORM_SPATIAL, &cudnn::kOne<DType>,
            &cudnn::kZero<DType>, &cudnn::kOne<DType>, &cudnn::kOne<DType>,
            desc_.get(), Input(), desc_.get(), this->out(0).grad.dptr_,
            desc_.get(), in_grad, channel_desc_.get(),
            this->weight(this->gamma_).dptr_,
            this->gradient(this->gamma_).dptr_,
            this->gradient(this->beta_).dptr_, Eps(), this->mean_.dptr_,
            this->inv_std_.dptr_),
        this->Problem());
    if (prop_grad && !direct) {
      Copy(this->in(0).grad,
           Reshape(this->xhat_.view(), this->in(0).grad.shape_),
           this->context().stream);
    }
  }

 protected:
  void OnSetup() override {
    Base::OnSetup();
    const Shape<3> s = this->xhat_.shape_;
    const cudnnDataType_t type = cudnn::TypeOf<DType>();
    desc_.Set(type, Shape4(s[0], s[1], s[2], 1));
    channel_desc_.Set(type, Shape4(1, s[1], 1, 1));
    if (this->InPlace()) {
      input_copy_.Resize(this->in_shapes()[0]);
    } else {
      input_copy_.Release();
    }
  }
  std::string Descriptors() const override {
    return desc_.str() + " (batch, channels, inner, 1)";
  }

 private:
  double Eps() const { return this->param_.eps; }
  // The input of the last Forward(true).
  const DType* Input() const {
    return this->InPlace() ? input_copy_.dptr_ : this->in(0).data.dptr_;
  }

  // The input as (batch, channels, inner, 1).
  cudnn::TensorDescriptor desc_;
  // gamma, beta, mean and 1 / std: (1, channels, 1, 1).
  cudnn::TensorDescriptor channel_desc_;
  // The input of Forward(true) when in place (its output overwrote it).
  TensorContainer<xpu, 4, DType> input_copy_{false};
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_BATCH_NORM_LAYER_H_
