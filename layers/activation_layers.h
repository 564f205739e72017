// Element-wise activation layers: relu, sigmoid, tanh, softplus (no
// parameters) and xelu (`b`). All run in place; their gradients are computed
// from the output.
//
// Example (config):
//   layer[fc1->fc1] = relu
//   layer[fc2->fc2] = xelu
//     b = 5
#ifndef UMBRA_LAYERS_ACTIVATION_LAYERS_H_
#define UMBRA_LAYERS_ACTIVATION_LAYERS_H_

#include <vector>

#include "layers/activation_ops.h"
#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// One activation: its forward operator, its gradient as a function of the
// output, and a description.
struct ReluActivation {
  using Forward = ::umbra::op::relu;
  using Gradient = ::umbra::op::relu_grad;
  static constexpr const char* kDescription = "max(x, 0), element-wise.";
};
struct SigmoidActivation {
  using Forward = ::umbra::op::sigmoid;
  using Gradient = ::umbra::op::sigmoid_grad;
  static constexpr const char* kDescription = "1 / (1 + e^-x), element-wise.";
};
struct TanhActivation {
  using Forward = ::umbra::op::tanh;
  using Gradient = ::umbra::op::tanh_grad;
  static constexpr const char* kDescription = "tanh(x), element-wise.";
};
struct SoftplusActivation {
  using Forward = ::umbra::op::softplus;
  using Gradient = op::softplus_grad;
  static constexpr const char* kDescription = "log(1 + e^x), element-wise.";
};

// out = Forward(in); in_grad = Gradient(out) * out_grad.
template <typename xpu, typename DType, typename Activation>
class ActivationLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        std::string(Activation::kDescription) + " Runs in place.";
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  void Forward(bool is_train) override {
    this->out(0).data = F<typename Activation::Forward>(this->in(0).data);
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    this->in(0).grad =
        F<typename Activation::Gradient>(this->out(0).data) * this->out(0).grad;
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    return in_shapes;
  }
};

template <typename xpu, typename DType>
using ReluLayer = ActivationLayer<xpu, DType, ReluActivation>;
template <typename xpu, typename DType>
using SigmoidLayer = ActivationLayer<xpu, DType, SigmoidActivation>;
template <typename xpu, typename DType>
using TanhLayer = ActivationLayer<xpu, DType, TanhActivation>;
template <typename xpu, typename DType>
using SoftplusLayer = ActivationLayer<xpu, DType, SoftplusActivation>;

struct XeluParam : public Parameter<XeluParam> {
  float b;
  UMBRA_DECLARE_PARAMETER(XeluParam) {
    UMBRA_DECLARE_FIELD(b)
        .set_default(5.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe("Negative inputs are divided by b.");
  }
};

// out = x where x > 0, else x / b.
template <typename xpu, typename DType>
class XeluLayer : public Layer<xpu, DType> {
 public:
  // The settings, for the ONNX exporter (train/onnx).
  const XeluParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "x where x > 0, else x / b (cxxnet's xelu). Runs in place.";
    info.params = {XeluParam::Manager()};
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  void Forward(bool is_train) override {
    this->out(0).data =
        F<op::xelu>(this->in(0).data, scalar<DType>(DType(param_.b)));
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    this->in(0).grad =
        F<op::xelu_grad>(this->out(0).data, scalar<DType>(DType(param_.b))) *
        this->out(0).grad;
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    return in_shapes;
  }

 private:
  XeluParam param_;
};

extern template class ActivationLayer<cpu, float, ReluActivation>;
extern template class ActivationLayer<cpu, double, ReluActivation>;
extern template class ActivationLayer<cpu, float, SigmoidActivation>;
extern template class ActivationLayer<cpu, double, SigmoidActivation>;
extern template class ActivationLayer<cpu, float, TanhActivation>;
extern template class ActivationLayer<cpu, double, TanhActivation>;
extern template class ActivationLayer<cpu, float, SoftplusActivation>;
extern template class ActivationLayer<cpu, double, SoftplusActivation>;
extern template class XeluLayer<cpu, float>;
extern template class XeluLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_ACTIVATION_LAYERS_H_
