// lrn (`local_size`, `alpha`, `beta`, `knorm`): local response normalisation
// across channels, as in AlexNet and cxxnet:
//   norm[n][c][y][x] = knorm + alpha / local_size *
//                      sum of in[n][c'][y][x]^2 over |c' - c| <= local_size/2
//   out = in * norm^-beta
// with channels outside [0, C) left out of the sum. The output has the shape
// of the input.
//
// Example (config):
//   layer[conv1->norm1] = lrn
//     local_size = 5
//     alpha = 0.0001
//     beta = 0.75
#ifndef UMBRA_LAYERS_LRN_LAYER_H_
#define UMBRA_LAYERS_LRN_LAYER_H_

#include <string>
#include <vector>

#include "layers/layer.h"
#include "param/param.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct LrnParam : public Parameter<LrnParam> {
  int local_size;
  float alpha;
  float beta;
  float knorm;
  UMBRA_DECLARE_PARAMETER(LrnParam) {
    UMBRA_DECLARE_FIELD(local_size)
        .set_default(5)
        .set_lower_bound(1)
        .describe("Number of channels in each sum, odd, centred.");
    UMBRA_DECLARE_FIELD(alpha).set_default(0.001f).describe(
        "Scale of the sum of squares (divided by local_size).");
    UMBRA_DECLARE_FIELD(beta).set_default(0.75f).describe(
        "Exponent of the normaliser.");
    UMBRA_DECLARE_FIELD(knorm)
        .set_default(1.0f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe("Constant added to the normaliser.");
  }
};

template <typename xpu, typename DType>
class LrnLayer : public Layer<xpu, DType> {
 public:
  // The settings, for the ONNX exporter (train/onnx).
  const LrnParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Local response normalisation across channels: in * (knorm + "
        "alpha / local_size * sum of squares)^-beta.";
    info.params = {LrnParam::Manager()};
    return info;
  }
  void Forward(bool is_train) override {
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    norm_ = chpool<red::sum>(F<::umbra::op::square>(in), size()) *
                scalar(Salpha()) +
            scalar(DType(param_.knorm));
    scale_ = F<::umbra::op::pow>(norm_, scalar(DType(-param_.beta)));
    this->out(0).data = in * scale_;
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    // d in_j = g_j norm_j^-beta
    //          - 2 alpha beta / n * in_j * sum over c near j of
    //            g_c out_c / norm_c.
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    const Tensor<xpu, 4, DType> grad = this->out(0).grad;
    ratio_ = grad * this->out(0).data / norm_;
    this->in(0).grad =
        grad * scale_ - scalar(DType(2) * DType(param_.beta) * Salpha()) * in *
                            chpool<red::sum>(ratio_, size());
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
    if (param_.local_size % 2 != 1) {
      throw ParamError(
          "LrnParam: key 'local_size': expected an odd number, "
          "got '" +
              std::to_string(param_.local_size) + "'",
          "LrnParam", "local_size");
    }
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    return in_shapes;
  }
  void OnSetup() override {
    norm_.Resize(this->in_shapes()[0]);
    scale_.Resize(this->in_shapes()[0]);
    ratio_.Resize(this->in_shapes()[0]);
  }

 protected:
  index_t size() const { return param_.local_size; }
  DType Salpha() const { return DType(param_.alpha) / DType(size()); }

  LrnParam param_;
  // knorm + alpha / n * the windowed sum of squares, from Forward.
  TensorContainer<xpu, 4, DType> norm_{false};
  // norm^-beta, from Forward.
  TensorContainer<xpu, 4, DType> scale_{false};
  // out.grad * out / norm, in Backprop.
  TensorContainer<xpu, 4, DType> ratio_{false};
};

extern template class LrnLayer<cpu, float>;
extern template class LrnLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LRN_LAYER_H_
