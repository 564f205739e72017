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
// Forward and Backprop run on the layer's device through three hooks
// (Predict, SumLoss, Gradient) that each loss implements for its devices:
// on the CPU with host loops (loss_layers.h); on the gpu (layers/gpu) with
// cuDNN and the expression engine, the loss sum reduced on the device, so
// that only that one number is copied to the host.
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
  int update_period;
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
    UMBRA_DECLARE_FIELD(update_period)
        .set_default(1)
        .set_lower_bound(1)
        .describe(
            "Batches per update (the trainer's update_period, which cxxnet "
            "also read here): the gradient is divided by it as well.");
  }
};

template <typename xpu, typename DType>
class LossLayer : public Layer<xpu, DType> {
 public:
  bool SupportsInPlace() const override { return true; }
  double Loss() const override { return loss_; }

  void Forward(bool is_train) override {
    const Tensor<xpu, 2, DType> in = AsMatrix(this->in(0).data);
    // The loss first: the prediction may overwrite the input (in place).
    loss_ = std::numeric_limits<double>::quiet_NaN();
    if (const Tensor<xpu, 2, DType>* label = LabelField(false)) {
      loss_ = SumLoss(in, *label) / double(in.size(0));
    }
    Predict(in, AsMatrix(this->out(0).data));
  }

  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    const Tensor<xpu, 2, DType>& label = *LabelField(true);
    Tensor<xpu, 2, DType> grad = AsMatrix(this->in(0).grad);
    Gradient(AsMatrix(this->out(0).data), label, grad);
    grad *= DType(loss_param_.grad_scale /
                  (GradientBatch() * loss_param_.update_period));
  }

 protected:
  // The keys of the concrete loss (LossParam is read already).
  virtual void SetLossParams(const ParamKwargs& kwargs) {}
  // pred = the prediction from in (pred may be in).
  virtual void Predict(Tensor<xpu, 2, DType> in,
                       Tensor<xpu, 2, DType> pred) = 0;
  // The sum over the batch of the per-example losses, from the input (so
  // that softmax and multi_logistic need no log of an underflown
  // probability).
  virtual double SumLoss(Tensor<xpu, 2, DType> in,
                         Tensor<xpu, 2, DType> label) = 0;
  // grad = d(sum of the per-example losses)/d(input), from the prediction.
  virtual void Gradient(Tensor<xpu, 2, DType> pred, Tensor<xpu, 2, DType> label,
                        Tensor<xpu, 2, DType> grad) = 0;
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
  // The divisor of the gradient: the batch_size key, else the batch, whole
  // also when it is split over ranks (whose gradients are then summed).
  double GradientBatch() const {
    if (loss_param_.batch_size) return *loss_param_.batch_size;
    return this->context().split.Global(this->in_shapes()[0][0]);
  }

  // The class index of row i of host labels (softmax, on either device); a
  // LayerError unless an integer in [0, n).
  index_t ClassOf(Tensor<cpu, 2, DType> label, index_t i, index_t n) const {
    const DType value = label[i][0];
    const index_t k = static_cast<index_t>(value);
    if (!(value >= 0) || value != DType(k) || k >= n) {
      std::ostringstream os;
      os << LayerLabel(this->name(), this->info().type) << ": label of row "
         << i << " is " << value << "; needs a class index in [0, " << n << ")";
      throw LayerError(os.str(), i);
    }
    return k;
  }

  LossParam loss_param_;
  double loss_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LOSS_LAYER_H_
