// softmax on the gpu: the loss layer of loss_layer.h with its three steps on
// cuDNN's log-softmax (CUDNN_SOFTMAX_LOG) and the expression engine:
//   SumLoss:  -sum of log p[label], log p = log-softmax(in), reduced on the
//             device (DeviceSum): one number crosses to the host;
//   Predict:  p = exp(log-softmax(in)), reusing SumLoss' log p in the same
//             Forward (computed here only in a Forward without labels);
//   Gradient: p - one_hot(label) (LossLayer scales it).
// Labels are copied to the host and checked to be class indices, with the
// CPU layer's message, before the device uses them: once per Forward with
// labels (in SumLoss), so a training step synchronises once for them. The
// Backprop after it reuses them when given the same label field (the same
// memory): the trainer fills labels before Forward and keeps them through
// Backprop. Values rewritten in place in between are not read again (the
// CPU layer would read them); another field, or a Backprop after a Forward
// without labels, binds and checks the field it is given.
//
// Example:
//   auto softmax = CreateLayer<gpu, float>("softmax", "loss", {});
#ifndef UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_

#include <string>

#include "layers/cudnn/cudnn.h"
#include "layers/gpu/cudnn_layer.h"
#include "layers/gpu/device_sum.h"
#include "layers/loss_layer.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnSoftmaxLayer : public CudnnLayer<xpu, DType, LossLayer<xpu, DType>> {
 public:
  void Forward(bool is_train) override {
    // Labels bound and log p computed by an earlier Forward are never
    // reused.
    bound_ = Tensor<xpu, 2, DType>();
    log_prob_current_ = false;
    LossLayer<xpu, DType>::Forward(is_train);
  }

 protected:
  index_t LabelWidth(index_t width) const override { return 1; }
  void Predict(Tensor<xpu, 2, DType> in, Tensor<xpu, 2, DType> pred) override {
    if (!log_prob_current_) LogSoftmax(in);
    pred = F<::umbra::op::exp>(log_prob_);
  }
  double SumLoss(Tensor<xpu, 2, DType> in,
                 Tensor<xpu, 2, DType> label) override {
    BindLabels(label);
    LogSoftmax(in);
    return -loss_sum_(mat_choose_row_element(log_prob_.view(), labels_.view()),
                      in.stream_);
  }
  void Gradient(Tensor<xpu, 2, DType> pred, Tensor<xpu, 2, DType> label,
                Tensor<xpu, 2, DType> grad) override {
    if (!IsBound(label)) BindLabels(label);
    grad = pred - one_hot_encode(labels_.view(), pred.size(1));
  }

  void OnSetup() override {
    bound_ = Tensor<xpu, 2, DType>();
    const Shape<4>& s = this->in_shapes()[0];
    const index_t batch = s[0], classes = s[3];
    desc_.Set(cudnn::TypeOf<DType>(), Shape4(batch, classes, 1, 1));
    log_prob_.Resize(Shape2(batch, classes));
    labels_.Resize(Shape1(batch));
    host_labels_.Resize(Shape2(batch, 1));
  }
  std::string Descriptors() const override { return desc_.str(); }

 private:
  // log_prob_ = log-softmax of each row of in.
  void LogSoftmax(Tensor<xpu, 2, DType> in) {
    log_prob_.set_stream(in.stream_);
    UMBRA_CUDNN_CHECK(
        cudnnSoftmaxForward(this->Handle(), CUDNN_SOFTMAX_LOG,
                            CUDNN_SOFTMAX_MODE_INSTANCE, &cudnn::kOne<DType>,
                            desc_.get(), in.dptr_, &cudnn::kZero<DType>,
                            desc_.get(), log_prob_.dptr_),
        this->Problem());
    log_prob_current_ = true;
  }
  // labels_ = the (batch, 1) label field, once each row is checked to be a
  // class index (ClassOf throws the CPU layer's LayerError otherwise).
  void BindLabels(Tensor<xpu, 2, DType> field) {
    bound_ = Tensor<xpu, 2, DType>();
    Copy(host_labels_.view(), field);
    const index_t classes = this->in_shapes()[0][3];
    for (index_t i = 0; i < host_labels_.size(0); ++i) {
      this->ClassOf(host_labels_.view(), i, classes);
    }
    Copy(Reshape(labels_.view(), field.shape_), field, field.stream_);
    bound_ = field;
  }
  // Whether labels_ holds `field`, bound in this Forward.
  bool IsBound(const Tensor<xpu, 2, DType>& field) const {
    return bound_.dptr_ != nullptr && bound_.dptr_ == field.dptr_ &&
           bound_.shape_ == field.shape_ && bound_.stride_ == field.stride_;
  }

  // The (batch, classes, 1, 1) input and log_prob_.
  cudnn::TensorDescriptor desc_;
  TensorContainer<xpu, 2, DType> log_prob_{false};
  // Whether log_prob_ is this Forward's (SumLoss computed it).
  bool log_prob_current_ = false;
  // The class index of each row, on the device and on the host.
  TensorContainer<xpu, 1, DType> labels_{false};
  TensorContainer<cpu, 2, DType> host_labels_{false};
  // The label field labels_ holds, since this Forward; dptr_ null if none.
  Tensor<xpu, 2, DType> bound_;
  DeviceSum loss_sum_;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_
