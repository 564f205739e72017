// Per-channel operations of the bias and prelu layers: adding a per-channel
// vector, summing over all but the channel axis, and PReLU.
//
// These are plain CPU loops standing in for tensor/extension's
// broadcast<1> and sumall_except_dim<1>, which were not there when the
// layers were written; a GPU build needs gpu overloads of these functions
// (or the layers switched to the extension expressions).
//
// The channel axis of a node is 1 (images) or, for a matrix (batch, 1, 1, n),
// the feature axis 3, as in cxxnet.
//
// Example:
//   Tensor<cpu, 3> x = ChannelView(node.data);   // (batch, channels, inner)
//   AddChannelBias(x, x, bias);                   // in place
#ifndef UMBRA_LAYERS_CHANNEL_OPS_H_
#define UMBRA_LAYERS_CHANNEL_OPS_H_

#include "layers/layer.h"
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
template <typename DType>
inline void AddChannelBias(Tensor<cpu, 3, DType> out, Tensor<cpu, 3, DType> in,
                           Tensor<cpu, 1, DType> bias) {
  const index_t batch = in.size(0), channels = in.size(1), inner = in.size(2);
  for (index_t n = 0; n < batch; ++n) {
    for (index_t c = 0; c < channels; ++c) {
      const DType b = bias.dptr_[c];
      const DType* src = in.dptr_ + (n * channels + c) * inner;
      DType* dst = out.dptr_ + (n * channels + c) * inner;
      for (index_t s = 0; s < inner; ++s) dst[s] = src[s] + b;
    }
  }
}

// sum[c] += sum over n and s of x[n][c][s].
template <typename DType>
inline void AccumulateChannelSum(Tensor<cpu, 1, DType> sum,
                                 Tensor<cpu, 3, DType> x) {
  const index_t batch = x.size(0), channels = x.size(1), inner = x.size(2);
  for (index_t n = 0; n < batch; ++n) {
    for (index_t c = 0; c < channels; ++c) {
      const DType* src = x.dptr_ + (n * channels + c) * inner;
      DType acc = 0;
      for (index_t s = 0; s < inner; ++s) acc += src[s];
      sum.dptr_[c] += acc;
    }
  }
}

// out = x where x > 0, else slope[c] * x.
template <typename DType>
inline void PReluForward(Tensor<cpu, 3, DType> out, Tensor<cpu, 3, DType> in,
                         Tensor<cpu, 1, DType> slope) {
  const index_t batch = in.size(0), channels = in.size(1), inner = in.size(2);
  for (index_t n = 0; n < batch; ++n) {
    for (index_t c = 0; c < channels; ++c) {
      const DType a = slope.dptr_[c];
      const DType* src = in.dptr_ + (n * channels + c) * inner;
      DType* dst = out.dptr_ + (n * channels + c) * inner;
      // Branch-free (the sign of x is random: a branch mispredicts half the
      // time), so that the loop vectorises.
      for (index_t s = 0; s < inner; ++s) {
        const DType x = src[s];
        const DType positive = DType(x > DType(0));
        dst[s] = x * (a + (DType(1) - a) * positive);
      }
    }
  }
}

// slope_grad[c] += sum of x * g where x <= 0; and, when in_grad has data,
// in_grad = g where x > 0, else slope[c] * g.
template <typename DType>
inline void PReluBackward(Tensor<cpu, 3, DType> in, Tensor<cpu, 3, DType> grad,
                          Tensor<cpu, 1, DType> slope,
                          Tensor<cpu, 1, DType> slope_grad,
                          Tensor<cpu, 3, DType> in_grad) {
  const index_t batch = in.size(0), channels = in.size(1), inner = in.size(2);
  for (index_t n = 0; n < batch; ++n) {
    for (index_t c = 0; c < channels; ++c) {
      const index_t offset = (n * channels + c) * inner;
      const DType a = slope.dptr_[c];
      const DType* x = in.dptr_ + offset;
      const DType* g = grad.dptr_ + offset;
      DType acc = 0;
      for (index_t s = 0; s < inner; ++s) {
        const DType negative_part = x[s] < DType(0) ? x[s] : DType(0);  // min
        acc += negative_part * g[s];
      }
      slope_grad.dptr_[c] += acc;
      if (in_grad.dptr_ == nullptr) continue;
      DType* dx = in_grad.dptr_ + offset;
      for (index_t s = 0; s < inner; ++s) {
        const DType positive = DType(x[s] > DType(0));
        dx[s] = g[s] * (a + (DType(1) - a) * positive);
      }
    }
  }
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CHANNEL_OPS_H_
