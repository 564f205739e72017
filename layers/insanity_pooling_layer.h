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

#include <algorithm>
#include <type_traits>
#include <vector>

#include "layers/displacement.h"
#include "layers/layer.h"
#include "layers/parallel_ranges.h"
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
    if constexpr (kCpu) {
      DisplaceCpu();
    } else {
      displaced_ = displace(this->in(0).data, mask_, insanity_.keep);
    }
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
    if constexpr (kCpu) return DisplacedBackwardCpu();
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

  // On the CPU plane by plane on the threads: each element takes its
  // source, and backward each window's gradient goes to the first element
  // (row by row) equal to its maximum, then each displaced element's
  // gradient to its source, added in the order of the windows and of the
  // elements. The unpool_first_max and displace_grad expressions gather
  // instead (each element searched the windows and the neighbours that may
  // have taken it): 50 ms backward where these passes take 9 (2 x 2 windows
  // of stride 2 over 64 x 32 planes of 32 x 32, keep = 0.8; the forward
  // pass 7 ms either way).
  void DisplaceCpu() {
    const expr::Displacement disp = Displacement();
    ForEachPlane(displaced_, [&](index_t p) {
      const DType* src = Plane(this->in(0).data, p);
      const DType* u = Plane(mask_, p);
      DType* dst = Plane(displaced_, p);
      for (index_t y = 0; y < disp.height; ++y) {
        for (index_t x = 0; x < disp.width; ++x) {
          index_t from_y, from_x;
          disp.From(u[y * disp.width + x], y, x, &from_y, &from_x);
          dst[y * disp.width + x] = src[from_y * disp.width + from_x];
        }
      }
    });
  }
  void DisplacedBackwardCpu() {
    const expr::Displacement disp = Displacement();
    const PoolWindow& w = this->window_;
    const index_t oh = this->out(0).data.size(2),
                  ow = this->out(0).data.size(3);
    ForEachPlane(displaced_, [&](index_t p) {
      const DType* displaced = Plane(displaced_, p);
      const DType* pooled = Plane(this->out(0).data, p);
      const DType* grad = Plane(this->out(0).grad, p);
      const DType* u = Plane(mask_, p);
      DType* displaced_grad = Plane(displaced_grad_, p);
      DType* in_grad = Plane(this->in(0).grad, p);
      const index_t size = disp.height * disp.width;
      std::fill(displaced_grad, displaced_grad + size, DType(0));
      std::fill(in_grad, in_grad + size, DType(0));
      for (index_t oy = 0; oy < oh; ++oy) {
        for (index_t ox = 0; ox < ow; ++ox) {
          const index_t first = FirstMax(w, displaced, disp.height, disp.width,
                                         oy, ox, pooled[oy * ow + ox]);
          if (first >= 0) displaced_grad[first] += grad[oy * ow + ox];
        }
      }
      for (index_t y = 0; y < disp.height; ++y) {
        for (index_t x = 0; x < disp.width; ++x) {
          index_t from_y, from_x;
          disp.From(u[y * disp.width + x], y, x, &from_y, &from_x);
          in_grad[from_y * disp.width + from_x] +=
              displaced_grad[y * disp.width + x];
        }
      }
    });
  }
  // The first element (row by row) of window (oy, ox) of a plane equal to
  // max, or -1.
  static index_t FirstMax(const PoolWindow& w, const DType* plane,
                          index_t height, index_t width, index_t oy, index_t ox,
                          DType max) {
    const index_t y0 = oy * w.stride_y - w.pad_y;
    const index_t x0 = ox * w.stride_x - w.pad_x;
    for (index_t y = std::max<index_t>(y0, 0);
         y < std::min(y0 + w.kernel_y, height); ++y) {
      for (index_t x = std::max<index_t>(x0, 0);
           x < std::min(x0 + w.kernel_x, width); ++x) {
        if (plane[y * width + x] == max) return y * width + x;
      }
    }
    return -1;
  }
  expr::Displacement Displacement() const {
    return {insanity_.keep, displaced_.size(2), displaced_.size(3)};
  }
  // Plane p (image p / channels, channel p % channels) of a node.
  static DType* Plane(const Tensor<xpu, 4, DType>& t, index_t p) {
    return t.dptr_ + p * t.size(2) * t.size(3);
  }
  // body(p) for each plane p of t, the planes split over the threads.
  template <typename Body>
  static void ForEachPlane(const Tensor<xpu, 4, DType>& t, const Body& body) {
    ParallelForEach(t.size(0) * t.size(1), t.shape_.Size(),
                    GetParallelThreshold(), body);
  }

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
