// The update rules as umbra expressions, one pass per assignment and no
// temporaries, templated on the device, and the definitions of the
// update_steps.h functions that apply them and then clear the gradient. Include
// it only where those are instantiated (update_steps.cc for the cpu,
// update_steps.cu for the gpu): on the gpu the expressions compile only under
// nvcc. `grad` is the gradient expression: the gradient tensor, or
// F<clip_gradient>(g, c) when clipping (see WithGradient). Each rule computes G
// = grad + wd * w (L2 weight decay, coupled with the gradient) unless it says
// otherwise.
//
// Example:
//
//   WithGradient(g, clip, [&](const auto& grad) {
//     SgdStep(w, m, grad, lr, wd, momentum);
//   });
#ifndef UMBRA_TRAIN_OPTIM_UPDATE_RULES_H_
#define UMBRA_TRAIN_OPTIM_UPDATE_RULES_H_

#include <cmath>
#include <type_traits>

#include "tensor/tensor.h"
#include "train/optim/update_steps.h"

namespace umbra {
namespace optim {
namespace op {

// a clipped to [-bound, bound], with NaN mapped to 0 (cxxnet's clip, which
// also served to stop NaN gradients).
struct clip_gradient {
  static constexpr const char* kName = "clip_gradient";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType bound) {
    if (a != a) return DType(0);
    if (a > bound) return bound;
    if (a < -bound) return DType(-bound);
    return a;
  }
};

}  // namespace op

// Calls fn(grad) with the gradient expression: F<clip_gradient>(g, clip)
// when clip > 0, g itself otherwise.
template <typename xpu, typename DType, typename Fn>
inline void WithGradient(const Tensor<xpu, 1, DType>& g, DType clip, Fn fn) {
  if (clip > DType(0)) {
    fn(expr::F<op::clip_gradient>(g, expr::scalar<DType>(clip)));
  } else {
    fn(g);
  }
}

// SGD with momentum (cxxnet's sgd):
//   m = momentum * m - lr * G;   w = w + m
template <typename xpu, typename DType, typename GradExp>
inline void SgdStep(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                    const GradExp& grad, DType lr, DType wd, DType momentum) {
  m = momentum * m - lr * (grad + wd * w);
  w += m;
}

// Nesterov momentum in cxxnet's form, w += (1 + mu) * m_new - mu * m_old,
// rewritten with mu * m_old = m_new + lr * G so that no copy of m is kept:
//   m = mu * m - lr * G;   w = w + mu * m - lr * G
template <typename xpu, typename DType, typename GradExp>
inline void NagStep(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                    const GradExp& grad, DType lr, DType wd, DType momentum) {
  m = momentum * m - lr * (grad + wd * w);
  w = w + momentum * m - lr * (grad + wd * w);
}

// The scalars of an Adam step: bias corrections of step t (1-based).
struct AdamScalars {
  double step_size;    // lr / (1 - beta1^t)
  double inv_root_c2;  // 1 / sqrt(1 - beta2^t)
  static AdamScalars At(double lr, double beta1, double beta2, long t) {
    AdamScalars s;
    s.step_size = lr / (1.0 - std::pow(beta1, static_cast<double>(t)));
    s.inv_root_c2 =
        1.0 / std::sqrt(1.0 - std::pow(beta2, static_cast<double>(t)));
    return s;
  }
};

// Adam (Kingma and Ba, with bias correction); `decoupled` selects AdamW
// (Loshchilov and Hutter): the decay is not part of G but applied to w.
//   m = b1 m + (1 - b1) G;   v = b2 v + (1 - b2) G^2
//   w = w - lr * (m_hat / (sqrt(v_hat) + eps))             adam, G = g + wd w
//   w = w - lr * (m_hat / (sqrt(v_hat) + eps) + wd * w)     adamw, G = g
// with m_hat = m / (1 - b1^t), v_hat = v / (1 - b2^t).
template <typename xpu, typename DType, typename GradExp>
inline void AdamStep(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                     Tensor<xpu, 1, DType> v, const GradExp& grad, DType lr,
                     DType wd, DType beta1, DType beta2, DType epsilon, long t,
                     bool decoupled) {
  using expr::F;
  const AdamScalars s = AdamScalars::At(lr, beta1, beta2, t);
  const DType step = DType(s.step_size);
  const DType inv_root_c2 = DType(s.inv_root_c2);
  const DType one = DType(1);
  if (decoupled) {
    m = beta1 * m + (one - beta1) * grad;
    v = beta2 * v + (one - beta2) * F<umbra::op::square>(grad);
    w = w - step * (m / (F<umbra::op::sqrt>(v) * inv_root_c2 + epsilon)) -
        lr * wd * w;
  } else {
    m = beta1 * m + (one - beta1) * (grad + wd * w);
    v = beta2 * v + (one - beta2) * F<umbra::op::square>(grad + wd * w);
    w = w - step * (m / (F<umbra::op::sqrt>(v) * inv_root_c2 + epsilon));
  }
}

// RMSProp (Tieleman and Hinton):
//   v = rho v + (1 - rho) G^2;   w = w - lr * G / (sqrt(v) + eps)
template <typename xpu, typename DType, typename GradExp>
inline void RmspropStep(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> v,
                        const GradExp& grad, DType lr, DType wd, DType rho,
                        DType epsilon) {
  using expr::F;
  v = rho * v + (DType(1) - rho) * F<umbra::op::square>(grad + wd * w);
  w = w - lr * (grad + wd * w) / (F<umbra::op::sqrt>(v) + epsilon);
}

// On the cpu, SgdStep or NagStep in one pass over w, m and g that also sets
// g to zero (update_steps.cc): the expressions take a pass per assignment
// and the clearing another, and for a weight of the size of a layer's (a few
// MB, held in the L2 or L3 cache) the step is bound by those passes.
template <typename DType>
void FusedMomentumStepCpu(Tensor<cpu, 1, DType> w, Tensor<cpu, 1, DType> m,
                          Tensor<cpu, 1, DType> g, DType clip, DType lr,
                          DType wd, DType momentum, bool nesterov);

template <typename xpu, typename DType>
void ApplyMomentumRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                       Tensor<xpu, 1, DType> g, DType clip, DType lr, DType wd,
                       DType momentum, bool nesterov) {
  if constexpr (std::is_same<xpu, cpu>::value) {
    FusedMomentumStepCpu(w, m, g, clip, lr, wd, momentum, nesterov);
  } else {
    WithGradient(g, clip, [&](const auto& grad) {
      if (nesterov) {
        NagStep(w, m, grad, lr, wd, momentum);
      } else {
        SgdStep(w, m, grad, lr, wd, momentum);
      }
    });
    g = DType(0);
  }
}

// The scalars of an Adam step on the cpu (FusedAdamStepCpu).
template <typename DType>
struct AdamStepScalars {
  DType clip, lr, wd, beta1, beta2, epsilon;
  AdamScalars bias;
};

// On the cpu, AdamStep in one pass over w, m, v and g that also sets g to
// zero, for the reason FusedMomentumStepCpu is one pass: the expressions
// took three and the clearing a fourth (//train/optim:update_steps_bench,
// 2-core Zen 5: 2.8x faster on the MLP's fc1, 2.6-3.2x on LeNet's, 2.4x on
// 16M weights).
template <typename DType>
void FusedAdamStepCpu(Tensor<cpu, 1, DType> w, Tensor<cpu, 1, DType> m,
                      Tensor<cpu, 1, DType> v, Tensor<cpu, 1, DType> g,
                      const AdamStepScalars<DType>& scalars, bool decoupled);

template <typename xpu, typename DType>
void ApplyAdamRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                   Tensor<xpu, 1, DType> v, Tensor<xpu, 1, DType> g, DType clip,
                   DType lr, DType wd, DType beta1, DType beta2, DType epsilon,
                   long t, bool decoupled) {
  if constexpr (std::is_same<xpu, cpu>::value) {
    FusedAdamStepCpu(
        w, m, v, g,
        AdamStepScalars<DType>{clip, lr, wd, beta1, beta2, epsilon,
                               AdamScalars::At(lr, beta1, beta2, t)},
        decoupled);
  } else {
    WithGradient(g, clip, [&](const auto& grad) {
      AdamStep(w, m, v, grad, lr, wd, beta1, beta2, epsilon, t, decoupled);
    });
    g = DType(0);
  }
}

template <typename xpu, typename DType>
void ApplyRmspropRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> v,
                      Tensor<xpu, 1, DType> g, DType clip, DType lr, DType wd,
                      DType rho, DType epsilon) {
  WithGradient(g, clip, [&](const auto& grad) {
    RmspropStep(w, v, grad, lr, wd, rho, epsilon);
  });
  g = DType(0);
}

// Explicit instantiations of the rules for one device and type.
#define UMBRA_OPTIM_INSTANTIATE_RULES(xpu, DType)                            \
  template void ApplyMomentumRule<xpu, DType>(                               \
      Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>,   \
      DType, DType, DType, DType, bool);                                     \
  template void ApplyAdamRule<xpu, DType>(                                   \
      Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>,   \
      Tensor<xpu, 1, DType>, DType, DType, DType, DType, DType, DType, long, \
      bool);                                                                 \
  template void ApplyRmspropRule<xpu, DType>(                                \
      Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>, Tensor<xpu, 1, DType>,   \
      DType, DType, DType, DType, DType)

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_UPDATE_RULES_H_
