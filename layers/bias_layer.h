// bias: adds a learned bias per channel (per feature for a matrix input),
// weight tag `bias`, initialised to init_bias. Runs in place.
//
// Example (config):
//   layer[conv1->conv1] = bias
//     init_bias = 0.1
#ifndef UMBRA_LAYERS_BIAS_LAYER_H_
#define UMBRA_LAYERS_BIAS_LAYER_H_

#include <vector>

#include "layers/channel_ops.h"
#include "layers/layer.h"
#include "layers/weight_param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class BiasLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Adds a learned bias per channel (per feature for a matrix input). "
        "Runs in place.";
    info.params = {WeightParam::Manager()};
    info.weight_tags = {"bias"};
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  void Forward(bool is_train) override {
    AddChannelBias(ChannelView(this->out(0).data),
                   ChannelView(this->in(0).data), this->weight(bias_));
  }
  void Backprop(bool prop_grad) override {
    AccumulateChannelSum(this->gradient(bias_), ChannelView(this->out(0).grad));
    if (prop_grad && !this->InPlace()) {
      this->in(0).grad = F<::umbra::op::identity>(this->out(0).grad);
    }
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const index_t channels = NumChannels(in_shapes[0]);
    bias_ = this->DeclareWeight("bias", TShape{channels}, WeightFill::kBias);
    return in_shapes;
  }

 private:
  size_t bias_ = 0;
};

extern template class BiasLayer<cpu, float>;
extern template class BiasLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_BIAS_LAYER_H_
