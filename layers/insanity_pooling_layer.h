// insanity_max_pooling (`keep` and the pooling keys of max_pooling):
// cxxnet's stochastic max pooling. While training, each input element is
// first displaced by one pixel at random (with probability 1 - keep, up,
// down, left or right alike, clamped to the image: see displacement.h),
// then max pooled; at test time it is max_pooling. keep = 1 is
// max_pooling throughout. The displacement is drawn from the layer's
// random numbers, one per input element and batch; the gradient goes back
// through the same displacement.
//
// Example (config):
//   layer[conv1->pool1] = insanity_max_pooling
//     kernel_size = 3
//     stride = 2
//     keep = 0.8
#ifndef UMBRA_LAYERS_INSANITY_POOLING_LAYER_H_
#define UMBRA_LAYERS_INSANITY_POOLING_LAYER_H_

#include <type_traits>
#include <vector>

#include "layers/displacement.h"
#include "layers/layer.h"
#include "layers/pooling_layers.h"
#include "param/param.h"
#include "tensor/extension/pooling.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct InsanityPoolingParam : public Parameter<InsanityPoolingParam> {
  float keep;
  UMBRA_DECLARE_PARAMETER(InsanityPoolingParam) {
    UMBRA_DECLARE_FIELD(keep)
        .set_default(1.0f)
        .set_range(0.0f, 1.0f)
        .describe(
            "Probability that an element stays in place while training; "
            "else it moves one pixel up, down, left or right (cxxnet's).");
  }
};

// The kind of pooling insanity_max_pooling is.
struct InsanityMaxPooling {
  static constexpr PoolKind kKind = PoolKind::kMax;
  static constexpr const char* kDescription =
      "Max pooling of each channel after moving each element one pixel at "
      "random with probability 1 - keep while training (cxxnet's insanity "
      "pooling).";
};

template <typename xpu, typename DType>
class InsanityMaxPoolingLayer
    : public PoolingBase<xpu, DType, InsanityMaxPooling> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info =
        PoolingBase<xpu, DType, InsanityMaxPooling>::Describe();
    info.params.push_back(InsanityPoolingParam::Manager());
    return info;
  }
  void Forward(bool is_train) override {
    displaced_now_ = is_train && insanity_.keep < 1.0f;
    if (!displaced_now_) return PoolInto(this->in(0).data);
    SampleUniformRows(this->context().rnd, this->context().split, &mask_);
    displaced_ = displace(this->in(0).data, mask_, insanity_.keep);
    PoolInto(displaced_);
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    const PoolWindow& w = this->window_;
    const Tensor<xpu, 4, DType> out = this->out(0).data;
    const Shape<2> pooled = Shape2(out.size(2), out.size(3));
    if (!displaced_now_) {
      if constexpr (kCpu) {
        // max_pooling's pass (spatial_ops.h), which the unpool expression
        // below took 30 times as long as (10.8 ms for 2 x 2 windows of stride
        // 2 over 64 x 32 planes of 32 x 32).
        return PoolBackward(PoolKind::kMax, w, this->in(0).data, out,
                            this->out(0).grad, this->in(0).grad);
      }
      this->in(0).grad = unpool<red::maximum>(
          this->in(0).data, out, this->out(0).grad, pooled, w.kernel_y,
          w.kernel_x, w.stride_y, w.stride_x, w.pad_y, w.pad_x);
      return;
    }
    expr::PoolGeometry geometry;
    geometry.ksize_y = w.kernel_y;
    geometry.ksize_x = w.kernel_x;
    geometry.kstride_y = w.stride_y;
    geometry.kstride_x = w.stride_x;
    geometry.pad_y = w.pad_y;
    geometry.pad_x = w.pad_x;
    geometry.src_height = displaced_.size(2);
    geometry.src_width = displaced_.size(3);
    geometry.pooled_height = pooled[0];
    geometry.pooled_width = pooled[1];
    displaced_grad_ =
        unpool_first_max(displaced_, out, this->out(0).grad, geometry);
    this->in(0).grad = displace_grad(displaced_grad_, mask_, insanity_.keep);
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    PoolingBase<xpu, DType, InsanityMaxPooling>::SetParams(kwargs);
    insanity_.InitAllowUnknown(kwargs);
  }
  void OnSetup() override {
    if (insanity_.keep >= 1.0f) return;
    for (TensorContainer<xpu, 4, DType>* t :
         {&mask_, &displaced_, &displaced_grad_}) {
      t->Resize(this->in_shapes()[0]);
    }
  }

 private:
  static constexpr bool kCpu = std::is_same<xpu, cpu>::value;

  // out = max pooling of src: on the CPU max_pooling's pass.
  void PoolInto(const Tensor<xpu, 4, DType>& src) {
    if constexpr (kCpu) {
      PoolForward(PoolKind::kMax, this->window_, src, this->out(0).data);
    } else {
      this->out(0).data = Pool(src);
    }
  }
  template <typename SrcExp>
  auto Pool(const SrcExp& src) const {
    const PoolWindow& w = this->window_;
    const Shape<4>& out = this->out_shapes()[0];
    return pool<red::maximum>(src, Shape2(out[2], out[3]), w.kernel_y,
                              w.kernel_x, w.stride_y, w.stride_x, w.pad_y,
                              w.pad_x);
  }

  InsanityPoolingParam insanity_;
  // Whether the last Forward displaced its input (training, keep < 1).
  bool displaced_now_ = false;
  // U(0, 1) per input element, drawn by each training Forward.
  TensorContainer<xpu, 4, DType> mask_{false};
  // The displaced input of the last Forward, and its gradient.
  TensorContainer<xpu, 4, DType> displaced_{false};
  TensorContainer<xpu, 4, DType> displaced_grad_{false};
};

extern template class InsanityMaxPoolingLayer<cpu, float>;
extern template class InsanityMaxPoolingLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_INSANITY_POOLING_LAYER_H_
