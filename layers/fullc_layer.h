// fullc (`nhidden`, `no_bias`): the fully connected layer,
//   out = in * wmat^T + bias,
// with wmat of shape (nhidden, input width) and bias of shape (nhidden).
// Input and output are matrices (batch, 1, 1, n); put a flatten layer
// before it for image nodes.
//
// Example (config):
//   layer[flat->fc1] = fullc:fc1
//     nhidden = 500
//     random_type = xavier
//     bias:wd = 0
#ifndef UMBRA_LAYERS_FULLC_LAYER_H_
#define UMBRA_LAYERS_FULLC_LAYER_H_

#include <sstream>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "layers/weight_param.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct FullcParam : public Parameter<FullcParam> {
  int nhidden;
  bool no_bias;
  UMBRA_DECLARE_PARAMETER(FullcParam) {
    UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1).describe(
        "Number of output units.");
    UMBRA_DECLARE_FIELD(no_bias).set_default(false).describe(
        "Leave out the bias term.");
    UMBRA_DECLARE_ALIAS(nhidden, num_hidden);
  }
};

template <typename xpu, typename DType>
class FullConnectLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Fully connected: out = in * wmat^T + bias, on matrix nodes.";
    info.params = {FullcParam::Manager(), WeightParam::Manager()};
    info.weight_tags = {"wmat", "bias"};
    return info;
  }
  void Forward(bool is_train) override {
    Tensor<xpu, 2, DType> in = AsMatrix(this->in(0).data);
    Tensor<xpu, 2, DType> out = AsMatrix(this->out(0).data);
    if (param_.no_bias) {
      out = dot(in, Wmat().T());
    } else {
      // The bias rows first, then the product added to them (beta = 1): a
      // pass that writes out, where a product with a ones column would read
      // and write it.
      out = repmat(this->weight(bias_), out.size(0));
      out += dot(in, Wmat().T());
    }
  }
  void Backprop(bool prop_grad) override {
    Tensor<xpu, 2, DType> in = AsMatrix(this->in(0).data);
    Tensor<xpu, 2, DType> out_grad = AsMatrix(this->out(0).grad);
    Tensor<xpu, 2, DType> wmat_grad =
        Reshape(this->gradient(wmat_), Wmat().shape_);
    wmat_grad += dot(out_grad.T(), in);
    if (!param_.no_bias) {
      Tensor<xpu, 1, DType> bias_grad = this->gradient(bias_);
      bias_grad += dot(ones_, out_grad);
    }
    if (prop_grad) AsMatrix(this->in(0).grad) = dot(out_grad, Wmat());
  }
  double ForwardMultiplyAdds() const override {
    const Shape<4>& in = this->in_shapes()[0];
    return double(in[0]) * in[3] * param_.nhidden;
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    if (!IsMatrix(s)) {
      this->FailShapes(in_shapes,
                       "a matrix input (batch,1,1,n); put a flatten layer "
                       "before it");
    }
    const index_t width = s[3], nhidden = param_.nhidden;
    wmat_ =
        this->DeclareWeight("wmat", TShape{nhidden, width}, WeightFill::kRandom,
                            FullyConnectedFans(width, nhidden));
    if (!param_.no_bias) {
      bias_ = this->DeclareWeight("bias", TShape{nhidden}, WeightFill::kBias);
    }
    return {Shape4(s[0], 1, 1, nhidden)};
  }
  void OnSetup() override {
    ones_.Resize(Shape1(this->in_shapes()[0][0]), DType(1));
  }

 private:
  Tensor<xpu, 2, DType> Wmat() const {
    return Reshape(this->weight(wmat_),
                   Shape2(param_.nhidden, this->in_shapes()[0][3]));
  }

  FullcParam param_;
  size_t wmat_ = 0;
  size_t bias_ = 0;
  // batch ones: the bias is added and summed through BLAS (as Caffe does).
  TensorContainer<xpu, 1, DType> ones_{false};
};

extern template class FullConnectLayer<cpu, float>;
extern template class FullConnectLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_FULLC_LAYER_H_
