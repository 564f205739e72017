// softmax on the gpu: the loss layer of loss_layers.h with its prediction
// and loss from cuDNN's log-softmax and its gradient on the expression
// engine; only the labels and the per-example losses cross to the host.
//
// Forward computes log p = log-softmax(in) (CUDNN_SOFTMAX_LOG, before an
// in-place output overwrites the input), the loss -mean log p[label] when
// the labels are there, and the prediction p = exp(log p). Backprop writes
// in.grad = grad_scale / batch * (p - one_hot(label)), as the CPU layer.
// Labels are checked on the host to be class indices, with the CPU layer's
// message.
//
// Example:
//   auto softmax = CreateLayer<gpu, float>("softmax", "loss", {});
#ifndef UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_
#define UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_

#include <limits>
#include <string>
#include <type_traits>

#include "layers/cudnn/cudnn.h"
#include "layers/layer.h"
#include "layers/loss_layers.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class CudnnSoftmaxLayer : public SoftmaxLayer<xpu, DType> {
  static_assert(std::is_same<xpu, gpu>::value,
                "CudnnSoftmaxLayer runs on the gpu; the cpu has SoftmaxLayer");

 public:
  void Forward(bool is_train) override {
    const DType one = 1, zero = 0;
    UMBRA_CUDNN_CHECK(
        cudnnSoftmaxForward(cudnn::Handle(this->context().stream),
                            CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE,
                            &one, desc_.get(), this->in(0).data.dptr_, &zero,
                            desc_.get(), log_prob_.dptr_),
        LayerLabel(this->name(), this->type()) + ": " + desc_.str());
    this->loss_ = std::numeric_limits<double>::quiet_NaN();
    if (const Tensor<xpu, 2, DType>* field = this->LabelField(false)) {
      BindLabels(*field);
      picked_ = mat_choose_row_element(log_prob_.view(), labels_.view());
      Copy(host_picked_.view(), picked_.view());
      double sum = 0;
      for (index_t i = 0; i < host_picked_.size(0); ++i) {
        sum -= host_picked_[i];
      }
      this->loss_ = sum / double(host_picked_.size(0));
    }
    AsMatrix(this->out(0).data) = F<::umbra::op::exp>(log_prob_);
  }

  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    BindLabels(*this->LabelField(true));
    const Tensor<xpu, 2, DType> prob = AsMatrix(this->out(0).data);
    AsMatrix(this->in(0).grad) =
        (prob - one_hot_encode(labels_.view(), prob.size(1))) *
        scalar(DType(this->loss_param_.grad_scale / this->GradientBatch()));
  }

 protected:
  void OnSetup() override {
    const Shape<4>& s = this->in_shapes()[0];
    const index_t batch = s[0], classes = s[3];
    desc_.Set(cudnn::TypeOf<DType>(), Shape4(batch, classes, 1, 1));
    log_prob_.Resize(Shape2(batch, classes));
    labels_.Resize(Shape1(batch));
    picked_.Resize(Shape1(batch));
    host_labels_.Resize(Shape2(batch, 1));
    host_picked_.Resize(Shape1(batch));
  }

 private:
  // labels_ = the label field, once each row is checked to be a class index
  // (ClassOf throws the CPU layer's LayerError otherwise).
  void BindLabels(const Tensor<xpu, 2, DType>& field) {
    Copy(host_labels_.view(), field);
    const index_t classes = this->in_shapes()[0][3];
    for (index_t i = 0; i < host_labels_.size(0); ++i) {
      this->ClassOf(host_labels_.view(), i, classes);
    }
    Copy(labels_.view(), Reshape(host_labels_.view(), labels_.shape_));
  }

  // The (batch, classes, 1, 1) input and log_prob_.
  cudnn::TensorDescriptor desc_;
  TensorContainer<xpu, 2, DType> log_prob_{false};
  // The class index of each row, and log p of that class.
  TensorContainer<xpu, 1, DType> labels_{false};
  TensorContainer<xpu, 1, DType> picked_{false};
  TensorContainer<cpu, 2, DType> host_labels_{false};
  TensorContainer<cpu, 1, DType> host_picked_{false};
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GPU_CUDNN_SOFTMAX_LAYER_H_
