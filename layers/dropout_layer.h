// dropout (`threshold`): while training, each element is zeroed with
// probability `threshold` and the others are scaled by 1 / (1 - threshold)
// (inverted dropout, so that nothing changes at test time); otherwise the
// input is passed through. Runs in place.
//
// Example (config):
//   layer[fc1->fc1] = dropout
//     threshold = 0.5
#ifndef UMBRA_LAYERS_DROPOUT_LAYER_H_
#define UMBRA_LAYERS_DROPOUT_LAYER_H_

#include <string>
#include <vector>

#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct DropoutParam : public Parameter<DropoutParam> {
  float threshold;
  UMBRA_DECLARE_PARAMETER(DropoutParam) {
    UMBRA_DECLARE_FIELD(threshold)
        .set_default(0.5f)
        .set_lower_bound(0.0f)
        .set_upper_bound(1.0f, param::kExclusive)
        .describe("Probability of dropping each element.");
  }
};

template <typename xpu, typename DType>
class DropoutLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Zeroes each element with probability threshold while training and "
        "scales the rest by 1 / (1 - threshold). Runs in place.";
    info.params = {DropoutParam::Manager()};
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  void Forward(bool is_train) override {
    masked_ = is_train && param_.threshold > 0.0f;
    if (masked_) {
      const DType keep = DType(1.0f - param_.threshold);
      SampleUniformRows(this->context().rnd, this->context().split, &mask_);
      mask_ = F<::umbra::op::threshold>(mask_, scalar<DType>(keep)) *
              scalar<DType>(DType(1) / keep);
      this->out(0).data = this->in(0).data * mask_;
    } else if (!this->InPlace()) {
      this->out(0).data = F<::umbra::op::identity>(this->in(0).data);
    }
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    if (masked_) {
      this->in(0).grad = this->out(0).grad * mask_;
    } else if (!this->InPlace()) {
      this->in(0).grad = F<::umbra::op::identity>(this->out(0).grad);
    }
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
  void OnSetup() override {
    if (this->context().rnd == nullptr) {
      this->Fail("needs a random number generator in its LayerContext");
    }
    mask_.Resize(this->in_shapes()[0]);
  }

 private:
  DropoutParam param_;
  TensorContainer<xpu, 4, DType> mask_{false};
  bool masked_ = false;
};

extern template class DropoutLayer<cpu, float>;
extern template class DropoutLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_DROPOUT_LAYER_H_
