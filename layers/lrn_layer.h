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

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "layers/layer.h"
#include "layers/parallel_ranges.h"
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
    if constexpr (kCpu) return ForwardCpu();
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
    if constexpr (kCpu) return BackpropCpu();
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

 private:
  static constexpr bool kCpu = std::is_same<xpu, cpu>::value;

  // The CPU passes: image by image on the threads, each channel's window of
  // channels a sum of rows (packets along the pixels), and norm^-beta for
  // beta = 0.75 (cxxnet's and Caffe's) as 1 / (sqrt(norm) sqrt(sqrt(norm))),
  // within 4 ulp of the exact value (10^7 norms from 1 to e^12, float and
  // double). The channel pooling expressions and a scalar pow took an lrn of
  // 48 channels of 30 x 30 at batch 32 4.4 ms forward and 1.9 ms backward,
  // these passes 1.0 and 0.9 ms (Zen 5, 2 threads).
  void ForwardCpu() {
    ForEachImage([&](index_t n) {
      const Tensor<xpu, 2, DType> in = Planes(this->in(0).data, n);
      const Tensor<xpu, 2, DType> norm = Planes(norm_, n);
      const Tensor<xpu, 2, DType> scale = Planes(scale_, n);
      const Tensor<xpu, 2, DType> out = Planes(this->out(0).data, n);
      for (index_t c = 0; c < in.size(0); ++c) {
        Tensor<xpu, 1, DType> norm_c = norm[c], scale_c = scale[c];
        const auto [first, last] = Window(c, in.size(0));
        norm_c = F<::umbra::op::square>(in[first]);
        for (index_t d = first + 1; d <= last; ++d) {
          norm_c += F<::umbra::op::square>(in[d]);
        }
        norm_c = norm_c * scalar(Salpha()) + scalar(DType(param_.knorm));
        if (param_.beta == 0.75f) {
          scale_c = F<::umbra::op::rsqrt>(norm_c) *
                    F<::umbra::op::rsqrt>(F<::umbra::op::sqrt>(norm_c));
        } else {
          scale_c = F<::umbra::op::pow>(norm_c, scalar(DType(-param_.beta)));
        }
        out[c] = in[c] * scale_c;
      }
    });
  }
  void BackpropCpu() {
    const DType factor = DType(2) * DType(param_.beta) * Salpha();
    ForEachImage([&](index_t n) {
      const Tensor<xpu, 2, DType> grad = Planes(this->out(0).grad, n);
      Tensor<xpu, 2, DType> ratio = Planes(ratio_, n);
      const Tensor<xpu, 2, DType> in = Planes(this->in(0).data, n);
      const Tensor<xpu, 2, DType> in_grad = Planes(this->in(0).grad, n);
      const Tensor<xpu, 2, DType> scale = Planes(scale_, n);
      ratio = grad * Planes(this->out(0).data, n) / Planes(norm_, n);
      for (index_t c = 0; c < in.size(0); ++c) {
        // in_grad[c] first holds the window's sum of ratios.
        Tensor<xpu, 1, DType> in_grad_c = in_grad[c];
        const auto [first, last] = Window(c, in.size(0));
        in_grad_c = F<::umbra::op::identity>(ratio[first]);
        for (index_t d = first + 1; d <= last; ++d) in_grad_c += ratio[d];
        in_grad_c = grad[c] * scale[c] - scalar(factor) * in[c] * in_grad_c;
      }
    });
  }
  // The channels [first, last] in the window of channel c of `channels`.
  std::pair<index_t, index_t> Window(index_t c, index_t channels) const {
    const index_t half = size() / 2;
    return {std::max<index_t>(0, c - half),
            std::min<index_t>(channels - 1, c + half)};
  }
  // Image n of a node as (channels, pixels).
  static Tensor<xpu, 2, DType> Planes(const Tensor<xpu, 4, DType>& t,
                                      index_t n) {
    return Tensor<xpu, 2, DType>(t[n].dptr_,
                                 Shape2(t.size(1), t.size(2) * t.size(3)));
  }
  // body(n) for each image n, the images split over the threads.
  template <typename Body>
  void ForEachImage(const Body& body) const {
    const Tensor<xpu, 4, DType> in = this->in(0).data;
    ParallelForEach(in.size(0), in.shape_.Size(), GetParallelThreshold(), body);
  }

 protected:
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
