// batch_norm (`eps`, `bn_momentum`, `init_slope`): batch normalisation of
// each channel (axis 1 of an image node, the feature axis of a matrix node
// (batch, 1, 1, n)),
//   out = gamma[c] * (in - mean[c]) / sqrt(var[c] + eps) + beta[c],
// with learnable weights gamma (tag `gamma`, starts at init_slope) and beta
// (tag `beta`, starts at init_bias). cxxnet's tag names work too: `wmat:`
// settings are gamma's, `bias:` settings beta's.
//
// While training, mean and var are the batch's (var biased: divided by the
// element count), and every Forward(true) updates the moving averages
//   moving = bn_momentum * moving + (1 - bn_momentum) * batch value;
// Forward(false) (test time) normalises with the moving averages instead,
// and so does training with `use_global_stats = 1` (fine-tuning a trained
// net: the moving averages stay as they are, the gradient treats them as
// constants); `use_batch_stats = 1` normalises with the batch's statistics
// at test time too (cxxnet's batch_norm_no_ma). `moving_average` is another
// name for bn_momentum.
// The moving averages are not trained: they are the layer's States()
// "<name>.moving_mean" (starts at 0) and "<name>.moving_var" (starts at 1),
// which checkpoints save and load with the weights. Runs in place.
//
// Example (config):
//   layer[conv1->conv1] = batch_norm:bn1     # weights bn1.gamma, bn1.beta
//     bn_momentum = 0.9
//     gamma:wd = 0
#ifndef UMBRA_LAYERS_BATCH_NORM_LAYER_H_
#define UMBRA_LAYERS_BATCH_NORM_LAYER_H_

#include <string>
#include <type_traits>
#include <vector>

#include "layers/batch_norm_cpu.h"
#include "layers/channel_ops.h"
#include "layers/layer.h"
#include "layers/weight_param.h"
#include "param/param.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct BatchNormParam : public Parameter<BatchNormParam> {
  float eps;
  float bn_momentum;
  float init_slope;
  bool sync_bn;
  bool use_global_stats;
  bool use_batch_stats;
  UMBRA_DECLARE_PARAMETER(BatchNormParam) {
    UMBRA_DECLARE_FIELD(eps)
        .set_default(1e-5f)
        .set_lower_bound(0.0f, param::kExclusive)
        .describe("Added to the variance before the square root.");
    UMBRA_DECLARE_FIELD(bn_momentum)
        .set_default(0.9f)
        .set_range(0.0f, 1.0f)
        .describe("Weight of the old value in the moving averages, [0, 1].");
    UMBRA_DECLARE_FIELD(init_slope)
        .set_default(1.0f)
        .describe("Initial value of gamma.");
    UMBRA_DECLARE_FIELD(sync_bn).set_default(false).describe(
        "With dist = mpi: normalise with the mean and variance of the global "
        "batch (summed over the ranks, forward and backward), as one process "
        "would; 0: each rank uses its own rows'.");
    UMBRA_DECLARE_FIELD(use_global_stats)
        .set_default(false)
        .describe(
            "Normalise with the moving averages while training too, and keep "
            "them (fine-tuning).");
    UMBRA_DECLARE_FIELD(use_batch_stats)
        .set_default(false)
        .describe(
            "Normalise with the batch's own mean and variance at test time "
            "too, never with the moving averages (cxxnet's "
            "batch_norm_no_ma).");
    UMBRA_DECLARE_ALIAS(bn_momentum, moving_average);
  }
};

template <typename xpu, typename DType>
class BatchNormLayer : public Layer<xpu, DType> {
 public:
  // The settings, for the ONNX exporter (train/onnx).
  const BatchNormParam& param() const { return param_; }
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Batch normalisation per channel with learnable gamma and beta; "
        "moving mean and variance (states) at test time. Runs in place; on "
        "the CPU it also computes an in-place relu that follows it on image "
        "planes (the net skips that relu layer).";
    info.params = {BatchNormParam::Manager(), WeightParam::Manager()};
    info.weight_tags = {"gamma", "beta"};
    // cxxnet visited gamma and beta as wmat and bias.
    info.weight_tag_aliases = {{"wmat", "gamma"}, {"bias", "beta"}};
    return info;
  }
  bool SupportsInPlace() const override { return true; }
  // On the CPU, with planes of more than one element (not after fullc).
  bool FuseRelu() override {
    if constexpr (std::is_same<xpu, cpu>::value) {
      relu_ = xhat_.size(2) > 1;
    }
    return relu_;
  }

  void Forward(bool is_train) override {
    const Tensor<xpu, 3, DType> in = ChannelView(this->in(0).data);
    Tensor<xpu, 3, DType> out = ChannelView(this->out(0).data);
    trained_ = (is_train || param_.use_batch_stats) && !param_.use_global_stats;
    update_moving_ = is_train && trained_;
    if constexpr (std::is_same<xpu, cpu>::value) {
      ForwardOnCpu(in, out);
    } else {
      ForwardWithExpressions(in, out);
    }
  }

  void Backprop(bool prop_grad) override {
    const Tensor<xpu, 3, DType> grad = ChannelView(this->out(0).grad);
    const Shape<3> shape = grad.shape_;
    if constexpr (std::is_same<xpu, cpu>::value) {
      // The fused relu's gradient first, in grad.
      const ReluAfterAffine<DType> relu{this->weight(gamma_),
                                        this->weight(beta_)};
      ChannelGradientSums(grad, xhat_.view(), sum_grad_.view(),
                          sum_grad_xhat_.view(), relu_ ? &relu : nullptr);
    } else {
      sum_grad_ = sumall_except_dim<1>(grad);
      sum_grad_xhat_ = sumall_except_dim<1>(grad * xhat_);
    }
    Tensor<xpu, 1, DType> gamma_grad = this->gradient(gamma_);
    Tensor<xpu, 1, DType> beta_grad = this->gradient(beta_);
    gamma_grad += sum_grad_xhat_;
    beta_grad += sum_grad_;
    if (!prop_grad) return;
    const Tensor<xpu, 1, DType> gamma = this->weight(gamma_);
    Tensor<xpu, 3, DType> in_grad = ChannelView(this->in(0).grad);
    gain_ = gamma * inv_std_;
    if (trained_) {
      // dx = gamma / std * (g - mean(g) - xhat * mean(g * xhat)), the means
      // over the rows the statistics came from (the gradients of gamma and
      // beta above keep this rank's sums: the trainer sums them).
      if (Synced()) {
        this->context().rank_sum->SumInPlace(sum_grad_);
        this->context().rank_sum->SumInPlace(sum_grad_xhat_);
      }
      const DType scale = DType(1) / DType(StatisticsCount(shape));
      sum_grad_ = sum_grad_ * scalar(scale);
      sum_grad_xhat_ = sum_grad_xhat_ * scalar(scale);
      if constexpr (std::is_same<xpu, cpu>::value) {
        NormalizeChannelGradient(grad, xhat_.view(), gain_.view(),
                                 sum_grad_.view(), sum_grad_xhat_.view(),
                                 in_grad);
      } else {
        in_grad = broadcast<1>(gain_, shape) *
                  (grad - broadcast<1>(sum_grad_, shape) -
                   xhat_ * broadcast<1>(sum_grad_xhat_, shape));
      }
    } else {
      in_grad = broadcast<1>(gain_, shape) * grad;
    }
  }

 protected:
  // Forward on any device, in the expression layer's passes.
  void ForwardWithExpressions(Tensor<xpu, 3, DType> in,
                              Tensor<xpu, 3, DType> out) {
    const Shape<3> shape = in.shape_;
    const Tensor<xpu, 1, DType> gamma = this->weight(gamma_);
    const Tensor<xpu, 1, DType> beta = this->weight(beta_);
    Tensor<xpu, 1, DType> moving_mean = this->state(moving_mean_);
    Tensor<xpu, 1, DType> moving_var = this->state(moving_var_);
    const DType eps = DType(param_.eps);
    if (trained_) {
      const DType scale = DType(1) / DType(StatisticsCount(shape));
      if (Synced()) {
        mean_ = sumall_except_dim<1>(in);
        this->context().rank_sum->SumInPlace(mean_);
        mean_ *= scale;
        xhat_ = in - broadcast<1>(mean_, shape);
        var_ = sumall_except_dim<1>(F<::umbra::op::square>(xhat_));
        this->context().rank_sum->SumInPlace(var_);
        var_ *= scale;
      } else {
        mean_ = sumall_except_dim<1>(in) * scale;
        xhat_ = in - broadcast<1>(mean_, shape);
        var_ = sumall_except_dim<1>(F<::umbra::op::square>(xhat_)) * scale;
      }
      inv_std_ = F<::umbra::op::rsqrt>(var_ + scalar(eps));
      xhat_ = xhat_ * broadcast<1>(inv_std_, shape);
      if (update_moving_) UpdateMovingAverages(moving_mean, moving_var);
    } else {
      inv_std_ = F<::umbra::op::rsqrt>(moving_var + scalar(eps));
      xhat_ = (in - broadcast<1>(moving_mean, shape)) *
              broadcast<1>(inv_std_, shape);
    }
    out = xhat_ * broadcast<1>(gamma, shape) + broadcast<1>(beta, shape);
  }

  // Forward with the fused passes of batch_norm_cpu.h: the statistics in
  // one pass (combined over the ranks when synced), then xhat and out in
  // another.
  void ForwardOnCpu(Tensor<cpu, 3, DType> in, Tensor<cpu, 3, DType> out) {
    const DType eps = DType(param_.eps);
    Tensor<cpu, 1, DType> moving_mean = this->state(moving_mean_);
    Tensor<cpu, 1, DType> moving_var = this->state(moving_var_);
    Tensor<cpu, 1, DType> mean = moving_mean;
    if (trained_) {
      ChannelMoments(in, mean_.view(), var_.view());
      if (Synced()) CombineRankMoments(in.shape_);
      var_ *= DType(1) / DType(StatisticsCount(in.shape_));
      inv_std_ = F<::umbra::op::rsqrt>(var_ + scalar(eps));
      if (update_moving_) UpdateMovingAverages(moving_mean, moving_var);
      mean = mean_.view();
    } else {
      inv_std_ = F<::umbra::op::rsqrt>(moving_var + scalar(eps));
    }
    NormalizeChannels(in, mean, inv_std_.view(), this->weight(gamma_),
                      this->weight(beta_), xhat_.view(), out, relu_);
  }

  // Turns this rank's mean_ and squared deviations var_ into the global
  // batch's, by sums over the ranks only (Chan et al.): the mean from the
  // ranks' sums, then each rank's deviations plus its count times the
  // squared distance of its mean from the global one.
  void CombineRankMoments(const Shape<3>& shape) {
    RankSum<xpu, DType>* ranks = this->context().rank_sum;
    const DType local = DType(shape[0] * shape[2]);
    Copy(local_mean_.view(), mean_.view(), this->context().stream);
    mean_ *= local;
    ranks->SumInPlace(mean_);
    mean_ *= DType(1) / DType(StatisticsCount(shape));
    var_ += F<::umbra::op::square>(local_mean_ - mean_) * scalar(local);
    ranks->SumInPlace(var_);
  }

  // moving = bn_momentum * moving + (1 - bn_momentum) * the batch's.
  void UpdateMovingAverages(Tensor<xpu, 1, DType> moving_mean,
                            Tensor<xpu, 1, DType> moving_var) {
    const DType keep = DType(param_.bn_momentum);
    moving_mean = moving_mean * scalar(keep) + mean_ * scalar(DType(1) - keep);
    moving_var = moving_var * scalar(keep) + var_ * scalar(DType(1) - keep);
  }

  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
    if (param_.use_batch_stats && param_.use_global_stats) {
      throw ParamError(
          "BatchNormParam: keys 'use_batch_stats' and 'use_global_stats' "
          "are both 1: the batch's statistics or the moving averages, not "
          "both",
          "BatchNormParam", "use_batch_stats");
    }
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const index_t channels = NumChannels(in_shapes[0]);
    gamma_ =
        this->DeclareWeight("gamma", TShape{channels}, WeightFill::kConstant,
                            {}, DType(param_.init_slope));
    beta_ = this->DeclareWeight("beta", TShape{channels}, WeightFill::kBias);
    moving_mean_ =
        this->DeclareState("moving_mean", TShape{channels}, DType(0));
    moving_var_ = this->DeclareState("moving_var", TShape{channels}, DType(1));
    return in_shapes;
  }
  // Whether the statistics come from every rank's rows (sync_bn on a
  // split batch).
  bool Synced() const {
    return param_.sync_bn && this->context().rank_sum != nullptr;
  }
  // The elements per channel the batch statistics are over: this rank's,
  // or the global batch's when Synced().
  index_t StatisticsCount(const Shape<3>& shape) const {
    return (Synced() ? this->context().split.Global(shape[0]) : shape[0]) *
           shape[2];
  }

  void OnSetup() override {
    const Shape<4>& s = this->in_shapes()[0];
    const index_t channels = NumChannels(s);
    xhat_.Resize(Shape3(s[0], channels, s.Size() / (s[0] * channels)));
    for (TensorContainer<xpu, 1, DType>* v :
         {&mean_, &var_, &local_mean_, &inv_std_, &gain_, &sum_grad_,
          &sum_grad_xhat_}) {
      v->Resize(Shape1(channels));
    }
  }

 protected:
  BatchNormParam param_;
  size_t gamma_ = 0;
  size_t beta_ = 0;
  size_t moving_mean_ = 0;
  size_t moving_var_ = 0;
  // Whether the last Forward used batch statistics.
  bool trained_ = false;
  // Whether it also updated the moving averages (training, not test time).
  bool update_moving_ = false;
  // Whether it computes the in-place relu after it (FuseRelu).
  bool relu_ = false;
  // The normalised input of the last Forward, (batch, channels, inner).
  TensorContainer<xpu, 3, DType> xhat_{false};
  TensorContainer<xpu, 1, DType> mean_{false};
  TensorContainer<xpu, 1, DType> var_{false};
  // This rank's mean while CombineRankMoments runs.
  TensorContainer<xpu, 1, DType> local_mean_{false};
  // 1 / sqrt(var + eps) of the statistics the last Forward used.
  TensorContainer<xpu, 1, DType> inv_std_{false};
  // gamma / sqrt(var + eps), in Backprop.
  TensorContainer<xpu, 1, DType> gain_{false};
  TensorContainer<xpu, 1, DType> sum_grad_{false};
  TensorContainer<xpu, 1, DType> sum_grad_xhat_{false};
};

extern template class BatchNormLayer<cpu, float>;
extern template class BatchNormLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_BATCH_NORM_LAYER_H_
