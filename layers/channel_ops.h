// Per-channel operations of the bias and prelu layers: adding a per-channel
// vector, summing over all but the channel axis, and PReLU; and the CPU
// passes in which conv and fullc add their bias and compute a fused relu and
// their gradients.
//
// They are tensor/extension expressions (broadcast<1>, sumall_except_dim<1>)
// on a (batch, channels, inner) view, so they run on any device the
// extension supports. PReLU has CPU overloads, chosen over the generic ones
// by overload resolution: the generic expressions evaluate broadcast<1> and
// the reduction element by element (an integer division per element, no
// packets), where PReLU on the CPU can use packets along each row.
//
// The channel axis of a node is 1 (images) or, for a matrix (batch, 1, 1, n),
// the feature axis 3, as in cxxnet.
//
// Example:
//   Tensor<cpu, 3> x = ChannelView(node.data);   // (batch, channels, inner)
//   AddChannelBias(x, x, bias);                   // in place
#ifndef UMBRA_LAYERS_CHANNEL_OPS_H_
#define UMBRA_LAYERS_CHANNEL_OPS_H_

#include <algorithm>

#include "layers/activation_ops.h"
#include "layers/cpu_packets.h"
#include "layers/layer.h"
#include "layers/parallel_ranges.h"
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

namespace channel_ops_internal {

// Throws unless in, out (or grad) and the per-channel vectors fit together.
template <typename DType>
inline void CheckPReluShapes(const char* what, const Tensor<cpu, 3, DType>& in,
                             const Tensor<cpu, 3, DType>& other,
                             const Tensor<cpu, 1, DType>& slope) {
  if (other.shape_ != in.shape_ || slope.size(0) != in.size(1)) {
    ThrowTensorError(what, ": input ", in.shape_, ", output or gradient ",
                     other.shape_, " and slope ", slope.shape_,
                     " do not fit (batch, channels, inner) and (channels,)");
  }
}

template <typename DType>
constexpr packet::PacketArch kArch = kCpuPacketArch<DType>;
template <typename DType>
using Packet = CpuPacket<DType>;

// One contiguous row of PReLU's backward pass with slope a: in_grad[i] =
// prelu_grad(x[i], a) * g[i] when kInGrad; returns the sum of
// negative_part(x[i]) * g[i].
template <bool kInGrad, typename DType>
inline DType PReluBackwardRow(const DType* x, const DType* g, DType a,
                              DType* in_grad, index_t len) {
  typedef Packet<DType> P;
  typedef packet::PacketOp<op::prelu_grad, DType, kArch<DType>> Grad;
  typedef packet::PacketOp<op::negative_part, DType, kArch<DType>> Negative;
  const P pa = P::Fill(a);
  // Each packet stores its input gradient and adds its term to the sum.
  index_t i = 0;
  DType sum = packet::SumPackets(&i, len, [&](index_t j) {
                const P px = P::LoadUnAligned(x + j);
                const P pg = P::LoadUnAligned(g + j);
                if (kInGrad) {
                  (Grad::Map(px, pa) * pg).StoreUnAligned(in_grad + j);
                }
                return Negative::Map(px) * pg;
              }).Sum();
  for (; i < len; ++i) {
    if (kInGrad) in_grad[i] = DType(op::prelu_grad::Map(x[i], a) * g[i]);
    sum = DType(sum + DType(op::negative_part::Map(x[i]) * g[i]));
  }
  return sum;
}

// PReLU's backward pass over the channels [c0, c1) of a (batch, channels)
// matrix (inner = 1), whose slope varies along the rows: packets along the
// channels, a few packets of channels at a time over all rows, so that
// memory is read row by row.
template <bool kInGrad, typename DType>
inline void PReluBackwardColumns(const DType* x, const DType* g,
                                 const DType* slope, DType* slope_grad,
                                 DType* in_grad, index_t batch,
                                 index_t channels, index_t c0, index_t c1) {
  typedef Packet<DType> P;
  typedef packet::PacketOp<op::prelu_grad, DType, kArch<DType>> Grad;
  typedef packet::PacketOp<op::negative_part, DType, kArch<DType>> Negative;
  const index_t k = P::kSize;
  constexpr int kBlock = 4;
  const index_t cp = c0 + (c1 - c0) / k * k;
  for (index_t c = c0; c < cp; c += kBlock * k) {
    const int np = static_cast<int>(std::min<index_t>(kBlock, (cp - c) / k));
    P a[kBlock], acc[kBlock];
    for (int j = 0; j < np; ++j) {
      a[j] = P::LoadUnAligned(slope + c + j * k);
      acc[j] = P::Fill(DType(0));
    }
    for (index_t n = 0; n < batch; ++n) {
      const index_t row = n * channels + c;
      for (int j = 0; j < np; ++j) {
        const P px = P::LoadUnAligned(x + row + j * k);
        const P pg = P::LoadUnAligned(g + row + j * k);
        if (kInGrad) {
          (Grad::Map(px, a[j]) * pg).StoreUnAligned(in_grad + row + j * k);
        }
        acc[j] = acc[j] + Negative::Map(px) * pg;
      }
    }
    for (int j = 0; j < np; ++j) {
      (P::LoadUnAligned(slope_grad + c + j * k) + acc[j])
          .StoreUnAligned(slope_grad + c + j * k);
    }
  }
  for (index_t c = cp; c < c1; ++c) {
    DType sum = DType(0);
    for (index_t n = 0; n < batch; ++n) {
      const index_t i = n * channels + c;
      sum = DType(
          sum + PReluBackwardRow<kInGrad>(x + i, g + i, slope[c],
                                          kInGrad ? in_grad + i : nullptr, 1));
    }
    slope_grad[c] = DType(slope_grad[c] + sum);
  }
}

template <bool kInGrad, typename DType>
inline void PReluBackwardCpu(Tensor<cpu, 3, DType> in,
                             Tensor<cpu, 3, DType> grad,
                             Tensor<cpu, 1, DType> slope,
                             Tensor<cpu, 1, DType> slope_grad,
                             Tensor<cpu, 3, DType> in_grad) {
  const index_t batch = in.size(0), channels = in.size(1), inner = in.size(2);
  const DType* x = in.dptr_;
  const DType* g = grad.dptr_;
  DType* ig = in_grad.dptr_;
  if (inner == 1) {
    // Ranges of whole packets of channels.
    const index_t k = Packet<DType>::kSize;
    ParallelRanges((channels + k - 1) / k, in.shape_.Size(),
                   GetParallelThreshold(), [&](index_t p0, index_t p1) {
                     PReluBackwardColumns<kInGrad>(
                         x, g, slope.dptr_, slope_grad.dptr_, ig, batch,
                         channels, p0 * k, std::min(p1 * k, channels));
                   });
    return;
  }
  // Channel by channel, each the sum of its rows (n, c) in the order of n:
  // the same sums whatever the number of threads.
  ParallelRanges(
      channels, in.shape_.Size(), GetParallelThreshold(),
      [&](index_t c0, index_t c1) {
        for (index_t c = c0; c < c1; ++c) {
          DType sum = DType(0);
          for (index_t n = 0; n < batch; ++n) {
            const index_t row = (n * channels + c) * inner;
            sum = DType(sum + PReluBackwardRow<kInGrad>(
                                  x + row, g + row, slope[c],
                                  kInGrad ? ig + row : nullptr, inner));
          }
          slope_grad[c] = DType(slope_grad[c] + sum);
        }
      });
}

}  // namespace channel_ops_internal

// One image's output gradient grad (channels, pixels, rows contiguous) of a
// layer that computes a relu after it (out: that relu's output): grad *=
// relu'(out) where `relu`, and with sums not null, sums[c] += the sum of
// row c of the result (the bias gradient). One pass, packets along each
// row, on the calling thread: a conv calls it on each image in its tasks,
// while the image is in the core's cache. (The relu's gradient and then a
// matrix-vector product per image for the sums each took LeNet's conv2 0.1
// to 0.2 ms per batch of 64.)
template <typename DType>
inline void ReluGradientAndRowSums(Tensor<cpu, 2, DType> out,
                                   Tensor<cpu, 2, DType> grad, bool relu,
                                   DType* sums) {
  typedef CpuPacket<DType> P;
  typedef packet::PacketOp<::umbra::op::relu_grad, DType, kCpuPacketArch<DType>>
      Mask;
  const index_t pixels = grad.size(1);
  for (index_t c = 0; c < grad.size(0); ++c) {
    DType* g = grad[c].dptr_;
    const DType* x = out[c].dptr_;
    index_t i = 0;
    DType sum = packet::SumPackets(&i, pixels, [&](index_t j) {
                  P pg = P::LoadUnAligned(g + j);
                  if (relu) {
                    pg = Mask::Map(P::LoadUnAligned(x + j)) * pg;
                    pg.StoreUnAligned(g + j);
                  }
                  return pg;
                }).Sum();
    for (; i < pixels; ++i) {
      if (relu) g[i] = DType(::umbra::op::relu_grad::Map(x[i]) * g[i]);
      sum = DType(sum + g[i]);
    }
    if (sums != nullptr) sums[c] = DType(sums[c] + sum);
  }
}

// A block of a matrix layer's output (rows: batch, columns: features) right
// after its product: x = relu(x + bias[column]), the bias where not null and
// the relu where `relu`. Packets along each row.
template <typename DType>
inline void AddColumnBiasAndRelu(Tensor<cpu, 2, DType> block, const DType* bias,
                                 bool relu) {
  typedef CpuPacket<DType> P;
  typedef packet::PacketOp<::umbra::op::relu, DType, kCpuPacketArch<DType>>
      Relu;
  const index_t k = P::kSize, columns = block.size(1);
  for (index_t n = 0; n < block.size(0); ++n) {
    DType* x = block[n].dptr_;
    index_t c = 0;
    for (; c + k <= columns; c += k) {
      P px = P::LoadUnAligned(x + c);
      if (bias != nullptr) px = px + P::LoadUnAligned(bias + c);
      if (relu) px = Relu::Map(px);
      px.StoreUnAligned(x + c);
    }
    for (; c < columns; ++c) {
      if (bias != nullptr) x[c] = DType(x[c] + bias[c]);
      if (relu) x[c] = ::umbra::op::relu::Map(x[c]);
    }
  }
}

// Columns [c0, c1) of a matrix layer's output gradient grad (batch, features)
// where the layer computes a relu after it (out: that relu's output): grad *=
// relu'(out) where `relu`, and with sums not null, sums[c] += each row's
// element of column c of the result, the rows in order (the bias gradient).
// One pass, row by row, packets along the row.
template <typename DType>
inline void ReluGradientAndColumnSums(Tensor<cpu, 2, DType> out,
                                      Tensor<cpu, 2, DType> grad, bool relu,
                                      DType* sums, index_t c0, index_t c1) {
  typedef CpuPacket<DType> P;
  typedef packet::PacketOp<::umbra::op::relu_grad, DType, kCpuPacketArch<DType>>
      Mask;
  const index_t k = P::kSize;
  for (index_t n = 0; n < grad.size(0); ++n) {
    DType* g = grad[n].dptr_;
    const DType* x = out[n].dptr_;
    index_t c = c0;
    for (; c + k <= c1; c += k) {
      P pg = P::LoadUnAligned(g + c);
      if (relu) {
        pg = Mask::Map(P::LoadUnAligned(x + c)) * pg;
        pg.StoreUnAligned(g + c);
      }
      if (sums != nullptr) {
        (P::LoadUnAligned(sums + c) + pg).StoreUnAligned(sums + c);
      }
    }
    for (; c < c1; ++c) {
      if (relu) g[c] = DType(::umbra::op::relu_grad::Map(x[c]) * g[c]);
      if (sums != nullptr) sums[c] = DType(sums[c] + g[c]);
    }
  }
}

// The CPU PReluForward: one pass, packets along each row (n, c) with the
// scalar slope[c], or along each row n of a matrix (inner = 1) with the slope
// vector.
template <typename DType>
inline void PReluForward(Tensor<cpu, 3, DType> out, Tensor<cpu, 3, DType> in,
                         Tensor<cpu, 1, DType> slope) {
  channel_ops_internal::CheckPReluShapes("PReluForward", in, out, slope);
  const index_t batch = in.size(0), channels = in.size(1), inner = in.size(2);
  if (inner == 1) {
    const Tensor<cpu, 2, DType> in2(in.dptr_, Shape2(batch, channels));
    const Tensor<cpu, 2, DType> out2(out.dptr_, Shape2(batch, channels));
    ParallelRanges(batch, in.shape_.Size(), GetParallelThreshold(),
                   [&](index_t n0, index_t n1) {
                     for (index_t n = n0; n < n1; ++n) {
                       Tensor<cpu, 1, DType> row = out2[n];
                       row = F<op::prelu>(in2[n], slope);
                     }
                   });
    return;
  }
  const Tensor<cpu, 2, DType> in2(in.dptr_, Shape2(batch * channels, inner));
  const Tensor<cpu, 2, DType> out2(out.dptr_, Shape2(batch * channels, inner));
  ParallelRanges(batch * channels, in.shape_.Size(), GetParallelThreshold(),
                 [&](index_t r0, index_t r1) {
                   for (index_t r = r0; r < r1; ++r) {
                     Tensor<cpu, 1, DType> row = out2[r];
                     row = F<op::prelu>(in2[r],
                                        scalar<DType>(slope[r % channels]));
                   }
                 });
}

// The CPU PReluBackward: one pass over in and grad that writes in_grad and
// sums the slope gradient, with packets, without temporaries, reading
// memory row by row.
template <typename DType>
inline void PReluBackward(Tensor<cpu, 3, DType> in, Tensor<cpu, 3, DType> grad,
                          Tensor<cpu, 1, DType> slope,
                          Tensor<cpu, 1, DType> slope_grad,
                          Tensor<cpu, 3, DType> in_grad) {
  channel_ops_internal::CheckPReluShapes("PReluBackward", in, grad, slope);
  if (slope_grad.shape_ != slope.shape_) {
    ThrowTensorError("PReluBackward: slope gradient ", slope_grad.shape_,
                     " does not match slope ", slope.shape_);
  }
  if (in_grad.dptr_ == nullptr) {
    channel_ops_internal::PReluBackwardCpu<false>(in, grad, slope, slope_grad,
                                                  in_grad);
    return;
  }
  channel_ops_internal::CheckPReluShapes("PReluBackward", in, in_grad, slope);
  channel_ops_internal::PReluBackwardCpu<true>(in, grad, slope, slope_grad,
                                               in_grad);
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CHANNEL_OPS_H_
