// Leaky rectifiers with a learned or a random negative slope:
//   prelu (`init_slope`, `random_slope`): x where x > 0, else a[c] * x, with
//     one learned slope per channel (weight tag `slope`, also `bias` as in
//     cxxnet), starting at init_slope, or at init_slope * U(0, 1) per
//     channel when random_slope is not 0; with `random` = r > 0, training
//     uses per element the slope a[c] * U(1 - r, 1 + r) clipped to [0, 1]
//     (cxxnet's; its slope gradient left the noise out, this one is the
//     exact gradient), test time a[c];
//   rrelu (`lb`, `ub`): x where x > 0, else x / b, b drawn from U(lb, ub) per
//     element while training and (lb + ub) / 2 otherwise (cxxnet's
//     "insanity"). rrelu runs in place; prelu does not.
//
// Example (config):
//   layer[conv1->act1] = prelu
//     init_slope = 0.25
//   layer[fc1->fc1] = rrelu
//     lb = 3
//     ub = 8
#ifndef UMBRA_LAYERS_LEAKY_RELU_LAYERS_H_
#define UMBRA_LAYERS_LEAKY_RELU_LAYERS_H_

#include <string>
#include <vector>

#include "layers/activation_ops.h"
#include "layers/channel_ops.h"
#include "layers/layer.h"
#include "layers/weight_param.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct PReluParam : public Parameter<PReluParam> {
  float init_slope;
  int random_slope;
  float random;
  UMBRA_DECLARE_PARAMETER(PReluParam) {
    UMBRA_DECLARE_FIELD(init_slope)
        .set_default(0.25f)
        .describe("Initial slope of every channel for negative inputs.");
    UMBRA_DECLARE_FIELD(random_slope)
        .set_default(0)
        .describe(
            "0: every slope starts at init_slope; otherwise each channel's "
            "starts at init_slope * U(0, 1) (cxxnet's flag).");
    UMBRA_DECLARE_FIELD(random)
        .set_default(0.0f)
        .set_range(0.0f, 1.0f)
        .describe(
            "While training, each element's slope is slope[c] * U(1 - "
            "random, 1 + random), clipped to [0, 1] (cxxnet's); 0: none.");
  }
};

template <typename xpu, typename DType>
class PReluLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "x where x > 0, else slope[c] * x, with a learned slope per channel "
        "(per feature for a matrix input).";
    info.params = {PReluParam::Manager(), WeightParam::Manager()};
    info.weight_tags = {"slope"};
    // cxxnet visited the slope as bias.
    info.weight_tag_aliases = {{"bias", "slope"}};
    return info;
  }
  void Forward(bool is_train) override {
    noisy_ = is_train && param_.random > 0;
    if (noisy_) return ForwardWithNoise();
    PReluForward(ChannelView(this->out(0).data), ChannelView(this->in(0).data),
                 this->weight(slope_));
  }
  void Backprop(bool prop_grad) override {
    const Tensor<xpu, 3, DType> in = ChannelView(this->in(0).data);
    const Tensor<xpu, 3, DType> grad = ChannelView(this->out(0).grad);
    if (noisy_) {
      Tensor<xpu, 1, DType> slope_grad = this->gradient(slope_);
      slope_grad +=
          sumall_except_dim<1>(F<op::negative_part>(in) * grad * slope_gain_);
      if (prop_grad) {
        ChannelView(this->in(0).grad) = F<op::prelu_grad>(in, slopes_) * grad;
      }
      return;
    }
    // Null: only the slope gradient.
    Tensor<xpu, 3, DType> in_grad(nullptr, Shape3(0, 0, 0), nullptr);
    if (prop_grad) in_grad = ChannelView(this->in(0).grad);
    PReluBackward(in, grad, this->weight(slope_), this->gradient(slope_),
                  in_grad);
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const index_t channels = NumChannels(in_shapes[0]);
    const WeightFill fill = param_.random_slope != 0
                                ? WeightFill::kUniformTimesConstant
                                : WeightFill::kConstant;
    slope_ = this->DeclareWeight("slope", TShape{channels}, fill, {},
                                 DType(param_.init_slope));
    return in_shapes;
  }
  void OnSetup() override {
    if (param_.random == 0) return;
    const Shape<3> shape = ChannelView(this->in(0).data).shape_;
    slopes_.Resize(shape);
    slope_gain_.Resize(shape);
  }

 private:
  // Training with `random`: every element's slope slope[c] * u, u ~ U(1 -
  // random, 1 + random), clipped to [0, 1]; d slope / d slope[c] is u where
  // the clip left it alone, else 0.
  void ForwardWithNoise() {
    const Tensor<xpu, 3, DType> in = ChannelView(this->in(0).data);
    const DType r = DType(param_.random);
    SampleUniformRows(this->context().rnd, this->context().split, &slope_gain_,
                      DType(1) - r, DType(1) + r);
    slopes_ = broadcast<1>(this->weight(slope_), in.shape_) * slope_gain_;
    slope_gain_ = slope_gain_ * F<op::in_unit_interval>(slopes_);
    slopes_ = F<::umbra::op::minimum>(
        F<::umbra::op::maximum>(slopes_, scalar(DType(0))), scalar(DType(1)));
    ChannelView(this->out(0).data) = F<op::prelu>(in, slopes_);
  }

  PReluParam param_;
  size_t slope_ = 0;
  // Whether the last Forward drew slopes (training with random > 0).
  bool noisy_ = false;
  // Its slopes, and the factor of slope[c] in each (0 where clipped).
  TensorContainer<xpu, 3, DType> slopes_{false};
  TensorContainer<xpu, 3, DType> slope_gain_{false};
};

struct RReluParam : public Parameter<RReluParam> {
  float lb;
  float ub;
  UMBRA_DECLARE_PARAMETER(RReluParam) {
    UMBRA_DECLARE_FIELD(lb)
        .set_default(5.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe("Lower bound of the random divisor of negative inputs.");
    UMBRA_DECLARE_FIELD(ub).set_default(10.0f).describe(
        "Upper bound (>= lb) of the random divisor of negative inputs.");
  }
};

template <typename xpu, typename DType>
class RReluLayer : public Layer<xpu, DType> {
 public:
  // The settings, for the ONNX exporter (train/onnx).
  const RReluParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "x where x > 0, else x / b with b ~ U(lb, ub) per element while "
        "training, (lb + ub) / 2 otherwise. Runs in place.";
    info.params = {RReluParam::Manager()};
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  void Forward(bool is_train) override {
    trained_ = is_train;
    if (is_train) {
      SampleUniformRows(this->context().rnd, this->context().split, &divisor_,
                        DType(param_.lb), DType(param_.ub));
      this->out(0).data = F<op::xelu>(this->in(0).data, divisor_);
    } else {
      this->out(0).data = F<op::xelu>(this->in(0).data, scalar<DType>(Mean()));
    }
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    if (trained_) {
      this->in(0).grad =
          F<op::xelu_grad>(this->out(0).data, divisor_) * this->out(0).grad;
    } else {
      this->in(0).grad =
          F<op::xelu_grad>(this->out(0).data, scalar<DType>(Mean())) *
          this->out(0).grad;
    }
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
    if (!(param_.ub >= param_.lb)) {
      throw ParamError("RReluParam: key 'ub': expected float >= lb (" +
                           FormatNumber(param_.lb) + "), got '" +
                           FormatNumber(param_.ub) + "'",
                       "RReluParam", "ub");
    }
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    return in_shapes;
  }
  void OnSetup() override {
    if (this->context().rnd == nullptr) {
      this->Fail("needs a random number generator in its LayerContext");
    }
    divisor_.Resize(this->in_shapes()[0]);
  }

 private:
  DType Mean() const { return DType((param_.lb + param_.ub) / 2); }

  RReluParam param_;
  TensorContainer<xpu, 4, DType> divisor_{false};
  bool trained_ = false;
};

extern template class PReluLayer<cpu, float>;
extern template class PReluLayer<cpu, double>;
extern template class RReluLayer<cpu, float>;
extern template class RReluLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LEAKY_RELU_LAYERS_H_
