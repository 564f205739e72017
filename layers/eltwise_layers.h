// Elementwise joins of two or more inputs of one shape into one output, the
// join of a residual block (Caffe's Eltwise, MXNet's ElementWiseSum):
//   eltwise_sum (elementwise_sum): out = sum_i coeff_i * in_i, coeff 1 by
//                                  default, and an in-place relu after it
//                                  in the same pass (FuseRelu);
//   eltwise_prod:                  out = prod_i in_i;
//   eltwise_max:                   out = max_i in_i; the gradient goes to
//                                  the first input that holds the maximum.
// Inputs of different shapes are refused, naming every input's shape.
//
// Example (config): a residual block's join, the shortcut feeding two layers
// through split.
//   layer[x->x1,x2] = split
//   ...                                  (x1 through two convs to r)
//   layer[r,x2->y] = eltwise_sum
#ifndef UMBRA_LAYERS_ELTWISE_LAYERS_H_
#define UMBRA_LAYERS_ELTWISE_LAYERS_H_

#include <string>
#include <vector>

#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct EltwiseSumParam : public Parameter<EltwiseSumParam> {
  std::vector<float> coeff;
  UMBRA_DECLARE_PARAMETER(EltwiseSumParam) {
    UMBRA_DECLARE_FIELD(coeff)
        .set_default(std::vector<float>{})
        .describe(
            "One factor per input, in input order (e.g. 1,-1 for a "
            "difference); empty: every factor 1.");
  }
};

enum class EltwiseOp { kSum, kProd, kMax };

template <typename xpu, typename DType, EltwiseOp kOp>
class EltwiseLayer : public Layer<xpu, DType> {
 public:
  // The settings (coeff for sums), for the ONNX exporter (train/onnx).
  const EltwiseSumParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    switch (kOp) {
      case EltwiseOp::kSum:
        info.description =
            "Sums its inputs (two or more, one shape) elementwise, each "
            "times its coeff. It also computes an in-place relu that follows "
            "it (the net skips that relu layer).";
        info.params = {EltwiseSumParam::Manager()};
        break;
      case EltwiseOp::kProd:
        info.description =
            "Multiplies its inputs (two or more, one shape) elementwise.";
        break;
      case EltwiseOp::kMax:
        info.description =
            "The elementwise maximum of its inputs (two or more, one shape); "
            "the gradient goes to the first input holding it.";
        break;
    }
    return info;
  }

  void Forward(bool is_train) override {
    Tensor<xpu, 4, DType> out = this->out(0).data;
    switch (kOp) {
      case EltwiseOp::kSum:
        ForwardSum(out);
        break;
      case EltwiseOp::kProd:
        out = this->in(0).data * this->in(1).data;
        for (size_t i = 2; i < this->num_in(); ++i) out *= this->in(i).data;
        break;
      case EltwiseOp::kMax:
        // winner_[i]: 1 where input i is the first to hold the maximum.
        out = F<::umbra::op::identity>(this->in(0).data);
        winner_[0] = scalar(DType(1));
        for (size_t i = 1; i < this->num_in(); ++i) {
          // 1 where input i beats every earlier one.
          winner_[i] = F<::umbra::op::threshold>(out, this->in(i).data);
          for (size_t j = 0; j < i; ++j) {
            winner_[j] *= scalar(DType(1)) - winner_[i];
          }
          out = F<::umbra::op::maximum>(out, this->in(i).data);
        }
        break;
    }
  }

  bool BackpropCopiesGradientTo(size_t input) const override {
    return kOp == EltwiseOp::kSum && Coeff(input) == DType(1);
  }
  // eltwise_sum computes the relu after it (a residual block's last), in
  // the sum's pass.
  bool FuseRelu() override {
    relu_ = kOp == EltwiseOp::kSum;
    return relu_;
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    Tensor<xpu, 4, DType> out_grad = this->out(0).grad;
    // The fused relu's gradient first, in place, as the relu layer
    // computes it (an input may share out_grad).
    if (relu_) {
      out_grad = out_grad * F<::umbra::op::relu_grad>(this->out(0).data);
    }
    for (size_t i = 0; i < this->num_in(); ++i) {
      Tensor<xpu, 4, DType> grad = this->in(i).grad;
      switch (kOp) {
        case EltwiseOp::kSum:
          // A net may have given the input the output's gradient.
          if (grad.dptr_ == out_grad.dptr_) break;
          grad = out_grad * scalar(Coeff(i));
          break;
        case EltwiseOp::kProd:
          // The product of the others, not out / in_i: an input may be 0.
          grad = F<::umbra::op::identity>(out_grad);
          for (size_t j = 0; j < this->num_in(); ++j) {
            if (j != i) grad *= this->in(j).data;
          }
          break;
        case EltwiseOp::kMax:
          grad = out_grad * winner_[i];
          break;
      }
    }
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    if (kOp == EltwiseOp::kSum) param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 0, 1);
    if (in_shapes.size() < 2) {
      this->FailShapes(in_shapes, "two or more inputs");
    }
    for (const Shape<4>& s : in_shapes) {
      if (s != in_shapes[0]) {
        this->FailShapes(in_shapes, "inputs of one shape");
      }
    }
    if (!param_.coeff.empty() && param_.coeff.size() != in_shapes.size()) {
      this->Fail("coeff has " + std::to_string(param_.coeff.size()) +
                 " values for " + std::to_string(in_shapes.size()) +
                 " inputs; give one per input");
    }
    return {in_shapes[0]};
  }
  void OnSetup() override {
    if (kOp != EltwiseOp::kMax) return;
    winner_.resize(this->num_in());
    for (auto& winner : winner_) winner.Resize(this->in_shapes()[0]);
  }

 private:
  // out = the weighted sum of the inputs, through the fused relu: the
  // first two inputs in one pass, and with the relu for two inputs.
  void ForwardSum(Tensor<xpu, 4, DType> out) {
    const Tensor<xpu, 4, DType> a = this->in(0).data, b = this->in(1).data;
    if (relu_ && this->num_in() == 2) {
      out = F<::umbra::op::relu>(a * scalar(Coeff(0)) + b * scalar(Coeff(1)));
      return;
    }
    out = a * scalar(Coeff(0)) + b * scalar(Coeff(1));
    for (size_t i = 2; i < this->num_in(); ++i) {
      out += this->in(i).data * scalar(Coeff(i));
    }
    if (relu_) out = F<::umbra::op::relu>(out);
  }
  DType Coeff(size_t i) const {
    return param_.coeff.empty() ? DType(1) : DType(param_.coeff[i]);
  }

  EltwiseSumParam param_;
  // Whether it computes the in-place relu after it (FuseRelu, sums only).
  bool relu_ = false;
  std::vector<TensorContainer<xpu, 4, DType>> winner_;
};

template <typename xpu, typename DType>
using EltwiseSumLayer = EltwiseLayer<xpu, DType, EltwiseOp::kSum>;
template <typename xpu, typename DType>
using EltwiseProdLayer = EltwiseLayer<xpu, DType, EltwiseOp::kProd>;
template <typename xpu, typename DType>
using EltwiseMaxLayer = EltwiseLayer<xpu, DType, EltwiseOp::kMax>;

extern template class EltwiseLayer<cpu, float, EltwiseOp::kSum>;
extern template class EltwiseLayer<cpu, double, EltwiseOp::kSum>;
extern template class EltwiseLayer<cpu, float, EltwiseOp::kProd>;
extern template class EltwiseLayer<cpu, double, EltwiseOp::kProd>;
extern template class EltwiseLayer<cpu, float, EltwiseOp::kMax>;
extern template class EltwiseLayer<cpu, double, EltwiseOp::kMax>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_ELTWISE_LAYERS_H_
