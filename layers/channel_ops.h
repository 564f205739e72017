// Per-channel operations of the bias and prelu layers: adding a per-channel
// vector, summing over all but the channel axis, and PReLU.
//
// They are tensor/extension expressions (broadcast<1>, sumall_except_dim<1>)
// on a (batch, channels, inner) view, so they run on any device the
// extension supports.
//
// The channel axis of a node is 1 (images) or, for a matrix (batch, 1, 1, n),
// the feature axis 3, as in cxxnet.
//
// Example:
//   Tensor<cpu, 3> x = ChannelView(node.data);   // (batch, channels, inner)
//   AddChannelBias(x, x, bias);                   // in place
#ifndef UMBRA_LAYERS_CHANNEL_OPS_H_
#define UMBRA_LAYERS_CHANNEL_OPS_H_

#include "layers/activation_ops.h"
#include "layers/layer.h"
#include "tensor/extension/extension.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// The number of channels of a node shape (see above).
inline index_t NumChannels(const Shape<4>& s) {
  return IsMatrix(s) ? s[3] : s[1];
}

// A contiguous node tensor as (batch, channels, inner).
template <typename xpu, typename DType>
inline Tensor<xpu, 3, DType> ChannelView(const Tensor<xpu, 4, DType>& t) {
  const index_t channels = NumChannels(t.shape_);
  return Tensor<xpu, 3, DType>(
      t.dptr_,
      Shape3(t.size(0), channels, t.shape_.Size() / (t.size(0) * channels)),
      t.stream_);
}

// out[n][c][s] = in[n][c][s] + bias[c]; out may be in.
template <typename xpu, typename DType>
inline void AddChannelBias(Tensor<xpu, 3, DType> out, Tensor<xpu, 3, DType> in,
                           Tensor<xpu, 1, DType> bias) {
  out = in + broadcast<1>(bias, in.shape_);
}

// sum[c] += sum over n and s of x[n][c][s].
template <typename xpu, typename DType>
inline void AccumulateChannelSum(Tensor<xpu, 1, DType> sum,
                                 Tensor<xpu, 3, DType> x) {
  sum += sumall_except_dim<1>(x);
}

// out = x where x > 0, else slope[c] * x.
template <typename xpu, typename DType>
inline void PReluForward(Tensor<xpu, 3, DType> out, Tensor<xpu, 3, DType> in,
                         Tensor<xpu, 1, DType> slope) {
  out = F<op::prelu>(in, broadcast<1>(slope, in.shape_));
}

// slope_grad[c] += sum of x * g where x < 0; and, when in_grad has data,
// in_grad = g where x > 0, else slope[c] * g.
template <typename xpu, typename DType>
inline void PReluBackward(Tensor<xpu, 3, DType> in, Tensor<xpu, 3, DType> grad,
                          Tensor<xpu, 1, DType> slope,
                          Tensor<xpu, 1, DType> slope_grad,
                          Tensor<xpu, 3, DType> in_grad) {
  slope_grad += sumall_except_dim<1>(F<op::negative_part>(in) * grad);
  if (in_grad.dptr_ == nullptr) return;
  in_grad = F<op::prelu_grad>(in, broadcast<1>(slope, in.shape_)) * grad;
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CHANNEL_OPS_H_
