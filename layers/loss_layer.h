// LossLayer: the base of the loss layers (softmax, l2_loss, lp_loss,
// multi_logistic), and LossParam, the keys they share.
//
// A loss layer has one matrix input (batch, 1, 1, n) and one output of the
// same shape, usually the same node (`layer[fc2->fc2] = softmax`). Forward
// writes the prediction (probabilities for softmax, sigmoid outputs for
// multi_logistic, the input for the regression losses) and, when the
// context's LabelInfo has the `target` field, the mean loss per example,
// which Loss() returns. Backprop writes
//   in.grad = grad_scale / batch_size * d(sum of per-example losses)/d in,
// so that grad_scale * Loss() is the objective it is the gradient of.
// Labels are a (batch, width) field of LabelInfo: a class index per row for
// softmax, one target per output otherwise.
//
// The loss arithmetic runs on the CPU; on another device the layer copies
// its input, labels and gradient through host buffers (as cxxnet did). The
// gpu softmax overrides Forward and Backprop instead (layers/gpu).
//
// Example:
//   LabelInfo<cpu, float> labels;
//   labels.fields["label"] = label_matrix;           // (batch, 1)
//   context.labels = &labels;
//   loss->Setup({&node}, {&node}, context);          // in place
//   loss->Forward(true);   double value = loss->Loss();
//   loss->Backprop(true);  // node.grad = gradient of the mean loss
#ifndef UMBRA_LAYERS_LOSS_LAYER_H_
#define UMBRA_LAYERS_LOSS_LAYER_H_

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct LossParam : public Parameter<LossParam> {
  float grad_scale;
  std::string target;
  std::optional<int> batch_size;
  UMBRA_DECLARE_PARAMETER(LossParam) {
    UMBRA_DECLARE_FIELD(grad_scale)
        .set_default(1.0f)
        .describe("Factor on the gradient (the weight of this loss).");
    UMBRA_DECLARE_FIELD(target).set_default("label").describe(
        "The label field the loss compares with.");
    UMBRA_DECLARE_FIELD(batch_size)
        .set_default(std::nullopt)
        .set_lower_bound(1)
        .describe(
            "The gradient is divided by this; None: the input's batch. Set "
            "it to the global batch when a batch is split over devices.");
  }
};

namespace internal {

// `t` itself on the CPU; otherwise a copy in `buffer`.
template <typename xpu, typename DType>
inline Tensor<cpu, 2, DType> ToHost(const Tensor<xpu, 2, DType>& t,
                                    TensorContainer<cpu, 2, DType>* buffer) {
  if constexpr (std::is_same<xpu, cpu>::value) {
    return t;
  } else {
    buffer->Resize(t.shape_);
    Copy(buffer->view(), t, t.stream_);
    if (t.stream_ != nullptr) t.stream_->Wait();
    return buffer->view();
  }
}

// Where the CPU code writes a result for `t`: `t` on the CPU, else `buffer`.
template <typename xpu, typename DType>
inline Tensor<cpu, 2, DType> HostTarget(
    const Tensor<xpu, 2, DType>& t, TensorContainer<cpu, 2, DType>* buffer) {
  if constexpr (std::is_same<xpu, cpu>::value) {
    return t;
  } else {
    buffer->Resize(t.shape_);
    return buffer->view();
  }
}

// Copies a result from HostTarget back to `t` (nothing on the CPU).
template <typename xpu, typename DType>
inline void FromHost(const Tensor<xpu, 2, DType>& t,
                     const Tensor<cpu, 2, DType>& host) {
  if constexpr (!std::is_same<xpu, cpu>::value) Copy(t, host, t.stream_);
}

}  // namespace internal

template <typename xpu, typename DType>
class LossLayer : public Layer<xpu, DType> {
 public:
  bool SupportsInPlace() const override { return true; }
  double Loss() const override { return loss_; }

  void Forward(bool is_train) override {
    const Tensor<xpu, 2, DType> out = AsMatrix(this->out(0).data);
    Tensor<cpu, 2, DType> in =
        internal::ToHost(AsMatrix(this->in(0).data), &host_in_);
    Tensor<cpu, 2, DType> pred = internal::HostTarget(out, &host_pred_);
    // The loss first: the prediction may overwrite the input (in place).
    loss_ = std::numeric_limits<double>::quiet_NaN();
    Tensor<cpu, 2, DType> label;
    if (FindLabel(false, &label)) {
      loss_ = SumLoss(in, label) / double(in.size(0));
    }
    Predict(in, pred);
    internal::FromHost(out, pred);
  }

  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    Tensor<cpu, 2, DType> label;
    FindLabel(true, &label);
    const Tensor<xpu, 2, DType> in_grad = AsMatrix(this->in(0).grad);
    Tensor<cpu, 2, DType> pred =
        internal::ToHost(AsMatrix(this->out(0).data), &host_pred_);
    Tensor<cpu, 2, DType> grad = internal::HostTarget(in_grad, &host_grad_);
    Gradient(pred, label, grad);
    grad *= DType(loss_param_.grad_scale / GradientBatch());
    internal::FromHost(in_grad, grad);
  }

 protected:
  // The keys of the concrete loss (LossParam is read already).
  virtual void SetLossParams(const ParamKwargs& kwargs) {}
  // pred = the prediction from in (pred may be in).
  virtual void Predict(Tensor<cpu, 2, DType> in,
                       Tensor<cpu, 2, DType> pred) = 0;
  // The sum over the batch of the per-example losses, from the input (so
  // that softmax and multi_logistic need no log of an underflown
  // probability).
  virtual double SumLoss(Tensor<cpu, 2, DType> in,
                         Tensor<cpu, 2, DType> label) = 0;
  // grad = d(sum of the per-example losses)/d(input), from the prediction.
  virtual void Gradient(Tensor<cpu, 2, DType> pred, Tensor<cpu, 2, DType> label,
                        Tensor<cpu, 2, DType> grad) = 0;
  // The label width for an input of `width` outputs.
  virtual index_t LabelWidth(index_t width) const { return width; }

  void SetParams(const ParamKwargs& kwargs) final {
    loss_param_.InitAllowUnknown(kwargs);
    SetLossParams(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) final {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    if (!IsMatrix(in_shapes[0])) {
      this->FailShapes(in_shapes,
                       "a matrix input (batch,1,1,n); put a flatten layer "
                       "before it");
    }
    return in_shapes;
  }

 protected:
  // The target field of the context's labels, its shape checked; null when
  // it is missing and not `required` (throws when it is).
  const Tensor<xpu, 2, DType>* LabelField(bool required) const {
    const LabelInfo<xpu, DType>* labels = this->context().labels;
    const std::string& target = loss_param_.target;
    if (labels == nullptr || labels->fields.count(target) == 0) {
      if (!required) return nullptr;
      std::vector<std::string> names;
      if (labels != nullptr) {
        for (const auto& field : labels->fields) names.push_back(field.first);
      }
      this->Fail("needs the label field '" + target +
                 "' (key target) for Backprop; the LabelInfo has " +
                 (names.empty() ? std::string("no fields")
                                : "fields: " + JoinNames(names)));
    }
    const Tensor<xpu, 2, DType>& field = labels->fields.at(target);
    const Shape<4>& in = this->in_shapes()[0];
    const Shape<2> need = Shape2(in[0], LabelWidth(in[3]));
    if (field.shape_ != need) {
      std::ostringstream os;
      os << "label field '" << target << "' has shape " << field.shape_
         << "; needs " << need << " for input " << in;
      this->Fail(os.str());
    }
    return &field;
  }
  // The divisor of the gradient: the batch_size key, else the input's batch.
  double GradientBatch() const {
    return loss_param_.batch_size ? *loss_param_.batch_size
                                  : this->in_shapes()[0][0];
  }

  LossParam loss_param_;
  double loss_ = std::numeric_limits<double>::quiet_NaN();

 private:
  // The target field on the host (see LabelField); false when it is missing
  // and not `required`.
  bool FindLabel(bool required, Tensor<cpu, 2, DType>* label) {
    const Tensor<xpu, 2, DType>* field = LabelField(required);
    if (field == nullptr) return false;
    *label = internal::ToHost(*field, &host_label_);
    return true;
  }

  TensorContainer<cpu, 2, DType> host_in_{false};
  TensorContainer<cpu, 2, DType> host_pred_{false};
  TensorContainer<cpu, 2, DType> host_grad_{false};
  TensorContainer<cpu, 2, DType> host_label_{false};
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LOSS_LAYER_H_
