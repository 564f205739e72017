// One step of each update rule on one weight, as functions the updaters
// call for any device: the formulas are the expressions of update_rules.h,
// instantiated once per device and type - for the cpu (float, double) in
// update_steps.cc, for the gpu (float) in update_steps.cu - so that the
// updater classes compile on either device without seeing an expression.
//
// Example (MomentumUpdater::Step):
//
//   ApplyMomentumRule<xpu, DType>(w, m, g, clip, lr, wd, momentum,
//                                 /*nesterov=*/false);
//
// Every rule reads the gradient g clipped to [-clip, clip] (NaN to 0) when
// clip > 0, and g itself otherwise, and then sets g to zero for the next
// batch's gradients to add to.
#ifndef UMBRA_TRAIN_OPTIM_UPDATE_STEPS_H_
#define UMBRA_TRAIN_OPTIM_UPDATE_STEPS_H_

#include "tensor/tensor.h"

namespace umbra {
namespace optim {

// sgd (nesterov = false) or nag: m is the momentum.
template <typename xpu, typename DType>
void ApplyMomentumRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                       Tensor<xpu, 1, DType> g, DType clip, DType lr, DType wd,
                       DType momentum, bool nesterov);

// adam (decoupled = false) or adamw at step t (1-based): m and v are the
// moments.
template <typename xpu, typename DType>
void ApplyAdamRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> m,
                   Tensor<xpu, 1, DType> v, Tensor<xpu, 1, DType> g, DType clip,
                   DType lr, DType wd, DType beta1, DType beta2, DType epsilon,
                   long t, bool decoupled);

// rmsprop: v is the mean square.
template <typename xpu, typename DType>
void ApplyRmspropRule(Tensor<xpu, 1, DType> w, Tensor<xpu, 1, DType> v,
                      Tensor<xpu, 1, DType> g, DType clip, DType lr, DType wd,
                      DType rho, DType epsilon);

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_UPDATE_STEPS_H_
