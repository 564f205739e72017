// The loss layers (see loss_layer.h for what they share):
//   softmax (`grad_scale`): probabilities exp(x_k) / sum_j exp(x_j); loss
//     -log p[label], the label being a class index in [0, n);
//   l2_loss: prediction x; loss sum_k (x_k - y_k)^2;
//   lp_loss (`p`): prediction x; loss sum_k |x_k - y_k|^p;
//   multi_logistic: prediction s = sigmoid(x) per output; loss the binary
//     cross-entropy sum_k -(y_k log s_k + (1 - y_k) log(1 - s_k)).
//
// Example (config):
//   layer[fc2->fc2] = softmax
//     grad_scale = 1
#ifndef UMBRA_LAYERS_LOSS_LAYERS_H_
#define UMBRA_LAYERS_LOSS_LAYERS_H_

#include <cmath>
#include <string>
#include <type_traits>

#include "layers/loss_layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// On the gpu, softmax is CudnnSoftmaxLayer (layers/gpu).
template <typename xpu, typename DType>
class SoftmaxLayer : public LossLayer<xpu, DType> {
  static_assert(std::is_same<xpu, cpu>::value,
                "SoftmaxLayer computes on the cpu; the gpu's softmax is "
                "CudnnSoftmaxLayer (layers/gpu)");

 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Softmax over each row with the cross-entropy loss against a class "
        "index label.";
    info.params = {LossParam::Manager()};
    info.is_loss = true;
    return info;
  }

 protected:
  index_t LabelWidth(index_t width) const override { return 1; }
  void Predict(Tensor<xpu, 2, DType> in, Tensor<xpu, 2, DType> pred) override {
    const index_t n = in.size(1);
    for (index_t i = 0; i < in.size(0); ++i) {
      const DType* x = in[i].dptr_;
      DType* p = pred[i].dptr_;
      DType top = x[0];
      for (index_t k = 1; k < n; ++k) top = x[k] > top ? x[k] : top;
      DType sum = 0;
      for (index_t k = 0; k < n; ++k) {
        p[k] = std::exp(x[k] - top);
        sum += p[k];
      }
      for (index_t k = 0; k < n; ++k) p[k] /= sum;
    }
  }
  double SumLoss(Tensor<xpu, 2, DType> in,
                 Tensor<xpu, 2, DType> label) override {
    // -log p[k] = log(sum_j exp(x_j)) - x_k, with the row maximum taken out.
    double sum = 0;
    const index_t n = in.size(1);
    for (index_t i = 0; i < in.size(0); ++i) {
      const DType* x = in[i].dptr_;
      double top = x[0];
      for (index_t k = 1; k < n; ++k) top = x[k] > top ? x[k] : top;
      double total = 0;
      for (index_t k = 0; k < n; ++k) total += std::exp(x[k] - top);
      sum += top + std::log(total) - x[this->ClassOf(label, i, n)];
    }
    return sum;
  }
  void Gradient(Tensor<xpu, 2, DType> pred, Tensor<xpu, 2, DType> label,
                Tensor<xpu, 2, DType> grad) override {
    for (index_t i = 0; i < pred.size(0); ++i) {
      const index_t k = this->ClassOf(label, i, pred.size(1));
      for (index_t j = 0; j < pred.size(1); ++j) grad[i][j] = pred[i][j];
      grad[i][k] -= DType(1);
    }
  }
};

struct LpLossParam : public Parameter<LpLossParam> {
  float p;
  UMBRA_DECLARE_PARAMETER(LpLossParam) {
    UMBRA_DECLARE_FIELD(p).set_default(2.0f).set_lower_bound(1.0f).describe(
        "The exponent of the loss sum |x - y|^p.");
  }
};

// The device-specific arithmetic of lp_loss and multi_logistic: the loss
// sums and the lp gradient (their other steps are expressions, the same on
// every device). The cpu's is below (host loops, sums in double); the gpu's
// is in layers/gpu/loss_layers.cu (the expression engine, sums reduced on
// the device in double).
template <typename xpu, typename DType>
class LossMath;

template <typename DType>
class LossMath<cpu, DType> {
 public:
  // The sum of |in - label|^p.
  static double LpSum(Tensor<cpu, 2, DType> in, Tensor<cpu, 2, DType> label,
                      double p) {
    double sum = 0;
    for (index_t i = 0; i < in.size(0); ++i) {
      for (index_t j = 0; j < in.size(1); ++j) {
        sum += std::pow(std::fabs(double(in[i][j]) - label[i][j]), p);
      }
    }
    return sum;
  }
  // grad = p |pred - label|^(p - 1) sign(pred - label).
  static void LpGradient(Tensor<cpu, 2, DType> pred,
                         Tensor<cpu, 2, DType> label, double p,
                         Tensor<cpu, 2, DType> grad) {
    for (index_t i = 0; i < pred.size(0); ++i) {
      for (index_t j = 0; j < pred.size(1); ++j) {
        const double d = double(pred[i][j]) - label[i][j];
        const double sign = d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0);
        grad[i][j] = DType(p * std::pow(std::fabs(d), p - 1) * sign);
      }
    }
  }
  // The sum of the binary cross-entropies -(y log s + (1 - y) log(1 - s)),
  // s = sigmoid(x): softplus(x) - y x, without overflow.
  static double LogisticSum(Tensor<cpu, 2, DType> in,
                            Tensor<cpu, 2, DType> label) {
    double sum = 0;
    for (index_t i = 0; i < in.size(0); ++i) {
      for (index_t j = 0; j < in.size(1); ++j) {
        const double x = in[i][j], y = label[i][j];
        sum += (x > 0 ? x : 0) + std::log1p(std::exp(-std::fabs(x))) - y * x;
      }
    }
    return sum;
  }
};

template <typename xpu, typename DType>
class LpLossLayer : public LossLayer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = "Regression loss sum |x - y|^p; the prediction is x.";
    info.params = {LpLossParam::Manager(), LossParam::Manager()};
    info.is_loss = true;
    return info;
  }

 protected:
  void SetLossParams(const ParamKwargs& kwargs) override {
    LpLossParam param;
    param.InitAllowUnknown(kwargs);
    p_ = param.p;
  }
  void Predict(Tensor<xpu, 2, DType> in, Tensor<xpu, 2, DType> pred) override {
    Copy(pred, in, pred.stream_);  // nothing when in place
  }
  double SumLoss(Tensor<xpu, 2, DType> in,
                 Tensor<xpu, 2, DType> label) override {
    return math_.LpSum(in, label, p_);
  }
  void Gradient(Tensor<xpu, 2, DType> pred, Tensor<xpu, 2, DType> label,
                Tensor<xpu, 2, DType> grad) override {
    math_.LpGradient(pred, label, p_, grad);
  }

  // The exponent (2 for l2_loss).
  double p_ = 2.0;

 private:
  LossMath<xpu, DType> math_;
};

// lp_loss with p = 2 and no `p` key.
template <typename xpu, typename DType>
class L2LossLayer : public LpLossLayer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = "Regression loss sum (x - y)^2; the prediction is x.";
    info.params = {LossParam::Manager()};
    info.is_loss = true;
    return info;
  }

 protected:
  void SetLossParams(const ParamKwargs& kwargs) override { this->p_ = 2.0; }
};

template <typename xpu, typename DType>
class MultiLogisticLayer : public LossLayer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Independent sigmoid per output with the binary cross-entropy loss "
        "against targets in [0, 1].";
    info.params = {LossParam::Manager()};
    info.is_loss = true;
    return info;
  }

 protected:
  void Predict(Tensor<xpu, 2, DType> in, Tensor<xpu, 2, DType> pred) override {
    pred = F<::umbra::op::sigmoid>(in);
  }
  double SumLoss(Tensor<xpu, 2, DType> in,
                 Tensor<xpu, 2, DType> label) override {
    return math_.LogisticSum(in, label);
  }
  void Gradient(Tensor<xpu, 2, DType> pred, Tensor<xpu, 2, DType> label,
                Tensor<xpu, 2, DType> grad) override {
    grad = pred - label;
  }

 private:
  LossMath<xpu, DType> math_;
};

extern template class SoftmaxLayer<cpu, float>;
extern template class SoftmaxLayer<cpu, double>;
extern template class LpLossLayer<cpu, float>;
extern template class LpLossLayer<cpu, double>;
extern template class L2LossLayer<cpu, float>;
extern template class L2LossLayer<cpu, double>;
extern template class MultiLogisticLayer<cpu, float>;
extern template class MultiLogisticLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LOSS_LAYERS_H_
