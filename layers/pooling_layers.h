// max_pooling, avg_pooling, sum_pooling (`kernel_size` / `kernel_height` /
// `kernel_width`, `stride`, `pad` / `pad_y` / `pad_x`): 2-D pooling of each
// channel of (batch, C, H, W) images into (batch, C, OH, OW), with the ceil
// output size of cxxnet (see PoolWindow in spatial_ops.h):
//   OH = min(H + 2 pad_y - kh + stride - 1, H + 2 pad_y - 1) / stride + 1,
// less one when the last window would start in the padding. Padding never
// wins a max and adds 0 to a sum; avg_pooling divides every window's sum by
// kh * kw, padding counted, as cxxnet. For max pooling, every element equal
// to its window's maximum receives the window's gradient. `global_pool = 1`
// pools each whole input plane into one value (kernel = the plane, no
// window keys): a ResNet's global average pooling.
//
// Example (config):
//   layer[conv1->pool1] = max_pooling
//     kernel_size = 2
//     stride = 2
//   layer[c3->gap] = avg_pooling
//     global_pool = 1
#ifndef UMBRA_LAYERS_POOLING_LAYERS_H_
#define UMBRA_LAYERS_POOLING_LAYERS_H_

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "layers/layer.h"
#include "layers/spatial_ops.h"
#include "layers/window_keys.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct PoolingParam : public Parameter<PoolingParam> {
  std::optional<int> kernel_size;
  std::optional<int> kernel_height;
  std::optional<int> kernel_width;
  int stride;
  std::optional<int> pad;
  std::optional<int> pad_y;
  std::optional<int> pad_x;
  bool global_pool;
  UMBRA_DECLARE_PARAMETER(PoolingParam) {
    UMBRA_DECLARE_WINDOW_FIELDS("Window", "Padding", ", less than the window");
    UMBRA_DECLARE_FIELD(global_pool)
        .set_default(false)
        .describe(
            "Pool each whole input plane into one value (the window is the "
            "plane; set no window keys).");
  }
};

// The reduction of each pooling type.
struct MaxPooling {
  static constexpr PoolKind kKind = PoolKind::kMax;
  static constexpr const char* kDescription =
      "2-D max pooling of each channel.";
};
struct AvgPooling {
  static constexpr PoolKind kKind = PoolKind::kAvg;
  static constexpr const char* kDescription =
      "2-D average pooling of each channel (window sum / window area, "
      "padding counted).";
};
struct SumPooling {
  static constexpr PoolKind kKind = PoolKind::kSum;
  static constexpr const char* kDescription =
      "2-D sum pooling of each channel.";
};

// What every implementation of a pooling type shares: the parameters, the
// window and the output shape. PoolingLayer computes with the CPU kernels of
// spatial_ops.h; the gpu type (layers/gpu) with cuDNN.
template <typename xpu, typename DType, typename Pooling>
class PoolingBase : public Layer<xpu, DType> {
 public:
  // The settings and the window InferShapes settled on (the whole plane
  // with global_pool), for the ONNX exporter (train/onnx).
  const PoolingParam& param() const { return param_; }
  const PoolWindow& window() const { return window_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = Pooling::kDescription;
    info.params = {PoolingParam::Manager()};
    return info;
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
    if (param_.global_pool) {
      RefuseWindowKeys();
      return;  // the window is the input plane: set in DoInferShapes
    }
    ResolveWindowKeys(&param_, "PoolingParam");
    if (*param_.pad_y >= *param_.kernel_height ||
        *param_.pad_x >= *param_.kernel_width) {
      std::ostringstream os;
      os << "PoolingParam: key 'pad' (" << *param_.pad_y << ", "
         << *param_.pad_x << ") must be less than 'kernel_size' ("
         << *param_.kernel_height << ", " << *param_.kernel_width << ")";
      throw ParamError(os.str(), "PoolingParam", "pad");
    }
    window_.kernel_y = *param_.kernel_height;
    window_.kernel_x = *param_.kernel_width;
    window_.stride_y = window_.stride_x = param_.stride;
    window_.pad_y = *param_.pad_y;
    window_.pad_x = *param_.pad_x;
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    if (param_.global_pool) {
      window_ = PoolWindow();
      window_.kernel_y = s[2];
      window_.kernel_x = s[3];
      return {Shape4(s[0], s[1], 1, 1)};
    }
    const PoolWindow& w = window_;
    if (s[2] + 2 * w.pad_y < w.kernel_y || s[3] + 2 * w.pad_x < w.kernel_x) {
      std::ostringstream os;
      os << "a padded input (height + 2 pad_y, width + 2 pad_x) = ("
         << s[2] + 2 * w.pad_y << ", " << s[3] + 2 * w.pad_x
         << ") at least as large as the window ('kernel_size' " << w.kernel_y
         << "x" << w.kernel_x << ")";
      this->FailShapes(in_shapes, os.str());
    }
    return {Shape4(s[0], s[1],
                   PooledSize(s[2], w.kernel_y, w.stride_y, w.pad_y),
                   PooledSize(s[3], w.kernel_x, w.stride_x, w.pad_x))};
  }

  PoolingParam param_;
  PoolWindow window_;

 private:
  // global_pool takes the whole plane: a window key beside it is a mistake.
  void RefuseWindowKeys() const {
    const std::pair<const char*, bool> keys[] = {
        {"kernel_size", param_.kernel_size.has_value()},
        {"kernel_height", param_.kernel_height.has_value()},
        {"kernel_width", param_.kernel_width.has_value()},
        {"stride", param_.stride != 1},
        {"pad", param_.pad.has_value()},
        {"pad_y", param_.pad_y.has_value()},
        {"pad_x", param_.pad_x.has_value()}};
    for (const auto& [key, set] : keys) {
      if (!set) continue;
      throw ParamError(std::string("PoolingParam: key '") + key +
                           "' with global_pool = 1, whose window is the "
                           "whole input plane; remove one of them",
                       "PoolingParam", key);
    }
  }
};

template <typename xpu, typename DType, typename Pooling>
class PoolingLayer : public PoolingBase<xpu, DType, Pooling> {
 public:
  void Forward(bool is_train) override {
    PoolForward(Pooling::kKind, this->window_, this->in(0).data,
                this->out(0).data);
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    PoolBackward(Pooling::kKind, this->window_, this->in(0).data,
                 this->out(0).data, this->out(0).grad, this->in(0).grad);
  }
};

template <typename xpu, typename DType>
using MaxPoolingLayer = PoolingLayer<xpu, DType, MaxPooling>;
template <typename xpu, typename DType>
using AvgPoolingLayer = PoolingLayer<xpu, DType, AvgPooling>;
template <typename xpu, typename DType>
using SumPoolingLayer = PoolingLayer<xpu, DType, SumPooling>;

extern template class PoolingLayer<cpu, float, MaxPooling>;
extern template class PoolingLayer<cpu, double, MaxPooling>;
extern template class PoolingLayer<cpu, float, AvgPooling>;
extern template class PoolingLayer<cpu, double, AvgPooling>;
extern template class PoolingLayer<cpu, float, SumPooling>;
extern template class PoolingLayer<cpu, double, SumPooling>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_POOLING_LAYERS_H_
