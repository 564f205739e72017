// batch_norm's passes over memory on the CPU, on a (batch, channels, inner)
// view whose planes (n, c) are `inner` contiguous elements: each pass reads
// every plane from memory once, with packets, on the thread pool (a matrix,
// inner = 1: along its rows, with packets across the channels). A channel's
// sum adds its planes' sums in batch order, so results do not depend on the
// thread count. The layer's expressions (any device) take twice as many passes:
// these fuse the two statistics, the centring, scaling and affine steps, the
// two gradient sums, and the input gradient's terms.
//
// An in-place relu after batch_norm can run in these passes too (the
// network then skips the relu layer): out = relu(xhat * gamma + beta), and
// the first backward pass multiplies the output gradient by relu's gradient
// there, recomputed from xhat (the sign of the same arithmetic), as the
// relu layer's Backprop would have.
//
// Example (a training step's forward):
//   ChannelMoments(x, mean, var);   // then var /= count
//   NormalizeChannels(x, mean, inv_std, gamma, beta, xhat, out);
#ifndef UMBRA_LAYERS_BATCH_NORM_CPU_H_
#define UMBRA_LAYERS_BATCH_NORM_CPU_H_

#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// mean[c] = the mean of x[n][c][s] over n and s, and deviations[c] the sum
// of (x[n][c][s] - mean[c])^2, in one pass: each plane's mean and squared
// deviations (the plane is in cache for its second look), combined in batch
// order as Chan et al.'s parallel variance does.
template <typename DType>
void ChannelMoments(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                    Tensor<cpu, 1, DType> deviations);

// xhat = (x - mean[c]) * inv_std[c] and out = xhat * gamma[c] + beta[c]
// (with `relu`, its relu), in one pass; out may be x. `relu` needs planes
// of more than one element.
template <typename DType>
void NormalizeChannels(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                       Tensor<cpu, 1, DType> inv_std,
                       Tensor<cpu, 1, DType> gamma, Tensor<cpu, 1, DType> beta,
                       Tensor<cpu, 3, DType> xhat, Tensor<cpu, 3, DType> out,
                       bool relu = false);

// The relu that a forward pass applied after the affine step: its gamma
// and beta, for the backward passes' relu gradient.
template <typename DType>
struct ReluAfterAffine {
  Tensor<cpu, 1, DType> gamma, beta;
};

// sum_grad[c] = the sum of grad over n and s, and sum_grad_xhat[c] that of
// grad * xhat, in one pass; with `relu`, grad is first multiplied by relu's
// gradient, in place.
template <typename DType>
void ChannelGradientSums(Tensor<cpu, 3, DType> grad, Tensor<cpu, 3, DType> xhat,
                         Tensor<cpu, 1, DType> sum_grad,
                         Tensor<cpu, 1, DType> sum_grad_xhat,
                         const ReluAfterAffine<DType>* relu = nullptr);

// in_grad = gain[c] * (grad - mean_grad[c] - xhat * mean_grad_xhat[c]), in
// one pass; in_grad may be grad.
template <typename DType>
void NormalizeChannelGradient(Tensor<cpu, 3, DType> grad,
                              Tensor<cpu, 3, DType> xhat,
                              Tensor<cpu, 1, DType> gain,
                              Tensor<cpu, 1, DType> mean_grad,
                              Tensor<cpu, 1, DType> mean_grad_xhat,
                              Tensor<cpu, 3, DType> in_grad);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_BATCH_NORM_CPU_H_
