#include "layers/batch_norm_cpu.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "layers/cpu_packets.h"
#include "layers/parallel_ranges.h"

namespace umbra {
namespace layers {
namespace {

template <typename DType>
using Packet = CpuPacket<DType>;

// Planes per task at least: below this a plane loop stays on one thread.
constexpr index_t kMinParallelWork = index_t(1) << 15;

// Runs plane(n, c, offset) for every plane of a (batch, channels, inner)
// shape on the pool; offset is the plane's first element. Each thread calls
// range_done() after its last plane of a range.
template <typename Fn, typename Done = void (*)()>
void ForEachPlane(
    const Shape<3>& shape, const Fn& plane, const Done& range_done = [] {}) {
  const index_t channels = shape[1], inner = shape[2];
  ParallelRanges(shape[0] * channels, shape.Size(), kMinParallelWork,
                 [&](index_t begin, index_t end) {
                   for (index_t p = begin; p < end; ++p) {
                     plane(p / channels, p % channels, p * inner);
                   }
                   range_done();
                 });
}

// The sums of `terms` (a function of an element index giving a packet, and
// of one giving a scalar) over [0, len): four packet accumulators, then the
// scalar tail, always in this order.
template <typename DType, typename PacketTerm, typename ScalarTerm>
DType SumPlane(index_t len, const PacketTerm& packet_term,
               const ScalarTerm& scalar_term) {
  index_t i = 0;
  DType sum = packet::SumPackets(&i, len, packet_term).Sum();
  for (; i < len; ++i) sum += scalar_term(i);
  return sum;
}

// The sum of the `len` elements at v.
template <typename DType>
DType SumOf(const DType* v, index_t len) {
  return SumPlane<DType>(
      len, [&](index_t i) { return Packet<DType>::LoadUnAligned(v + i); },
      [&](index_t i) { return v[i]; });
}

// sums[c] = the plane sums of channel c (planes[n * channels + c]) added in
// batch order.
template <typename DType>
void AddPlanes(const std::vector<DType>& planes, index_t batch,
               Tensor<cpu, 1, DType> sums) {
  const index_t channels = sums.size(0);
  for (index_t c = 0; c < channels; ++c) {
    DType sum = DType(0);
    for (index_t n = 0; n < batch; ++n) sum += planes[n * channels + c];
    sums[c] = sum;
  }
}

// Whether every plane of t starts on a 64-byte cache line and fills whole
// lines.
template <typename DType>
bool PlanesAreWholeLines(const Tensor<cpu, 3, DType>& t) {
  constexpr index_t kLineBytes = 64;
  return t.size(2) * index_t(sizeof(DType)) % kLineBytes == 0 &&
         reinterpret_cast<uintptr_t>(t.dptr_) % kLineBytes == 0;
}

// One plane of NormalizeChannels: xhat = (v - m) * s, out = xhat * g + b.
// kStreamXhat stores xhat past the caches (the plane must be whole cache
// lines): Backprop reads it back only after the rest of the net's forward
// and backward passes have gone through the caches, so a cached store would
// only cost a read of each line first and push out `out`, which the next
// layer reads at once (the ResNet's 28x28 batch_norm forward 1.2 to 1.4x
// faster on Zen 5). A line written partly by streaming and partly by cached
// stores is slow (its 14x14 and 7x7 planes streamed: 1.5 to 2x slower),
// hence whole lines only. (Streaming every whole line of a range, packets
// across planes with each lane's channel, made the 14x14 planes 1.2x slower
// and left the 7x7 ones as they were.)
// kRelu: out = relu(xhat * g + b).
template <bool kStreamXhat, bool kRelu, typename DType>
void NormalizePlane(const DType* v, index_t inner, DType m, DType s, DType g,
                    DType b, DType* xhat, DType* out) {
  typedef Packet<DType> P;
  const index_t k = P::kSize;
  const P pm = P::Fill(m), ps = P::Fill(s), pg = P::Fill(g), pb = P::Fill(b);
  index_t i = 0;
  for (; i + k <= inner; i += k) {
    const P normal = (P::LoadUnAligned(v + i) - pm) * ps;
    if (kStreamXhat) {
      normal.StoreStreaming(xhat + i);
    } else {
      normal.StoreUnAligned(xhat + i);
    }
    const P affine = normal * pg + pb;
    (kRelu ? Max(affine, P::Fill(DType(0))) : affine).StoreUnAligned(out + i);
  }
  for (; i < inner; ++i) {
    const DType normal = (v[i] - m) * s;
    xhat[i] = normal;
    const DType affine = normal * g + b;
    out[i] = kRelu && !(affine > DType(0)) ? DType(0) : affine;
  }
}

// g *= relu's gradient at the forward's out = h * gamma + beta, for one
// plane of `inner` elements with xhat h: 1 where out is positive, else 0
// (the same arithmetic as NormalizePlane's, so the same sign; and g times
// 0 or 1, as the relu layer's Backprop computes it).
template <typename DType>
void ApplyReluGradient(DType* g, const DType* h, index_t inner, DType gamma,
                       DType beta) {
  typedef Packet<DType> P;
  const index_t k = P::kSize;
  const P pgamma = P::Fill(gamma), pbeta = P::Fill(beta), zero = P::Fill(0);
  index_t i = 0;
  for (; i + k <= inner; i += k) {
    (P::LoadUnAligned(g + i) *
     LessAsOne(zero, P::LoadUnAligned(h + i) * pgamma + pbeta))
        .StoreUnAligned(g + i);
  }
  for (; i < inner; ++i) g[i] *= DType(DType(0) < h[i] * gamma + beta);
}

// Planes of one element (a matrix's batch_norm, as after fullc): row n
// holds every channel, so the passes run along the rows, with packets across
// the channels, each thread on a range of channels. (Plane by plane, a
// 64 x 256 matrix took 0.32 ms forward and 0.24 ms backward on Zen 5; along
// the rows 0.025 and 0.009 ms.)

// Calls body(begin, end) for ranges of the channels of a matrix `shape`.
template <typename Body>
void ForChannelRanges(const Shape<3>& shape, const Body& body) {
  ParallelRanges(shape[1], shape.Size(), kMinParallelWork, body);
}

// For every row n of `batch`: packet(n, c) for the packets of channels
// [begin, end), then scalar(n, c) for the channels past the last one.
template <typename DType, typename PacketFn, typename ScalarFn>
void ForRowPackets(index_t batch, index_t begin, index_t end,
                   const PacketFn& packet, const ScalarFn& scalar) {
  const index_t k = Packet<DType>::kSize;
  for (index_t n = 0; n < batch; ++n) {
    index_t c = begin;
    for (; c + k <= end; c += k) packet(n, c);
    for (; c < end; ++c) scalar(n, c);
  }
}

// ChannelMoments of a matrix: the mean, then the squared deviations from
// it, summed in double over the rows.
template <typename DType>
void MatrixMoments(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                   Tensor<cpu, 1, DType> deviations) {
  const index_t batch = x.size(0), channels = x.size(1);
  ForChannelRanges(x.shape_, [&](index_t begin, index_t end) {
    std::vector<double> m(end - begin, 0.0), d(end - begin, 0.0);
    for (index_t n = 0; n < batch; ++n) {
      const DType* row = x.dptr_ + n * channels + begin;
      for (index_t j = 0; j < end - begin; ++j) m[j] += double(row[j]);
    }
    for (double& sum : m) sum /= double(batch);
    for (index_t n = 0; n < batch; ++n) {
      const DType* row = x.dptr_ + n * channels + begin;
      for (index_t j = 0; j < end - begin; ++j) {
        const double deviation = double(row[j]) - m[j];
        d[j] += deviation * deviation;
      }
    }
    for (index_t j = 0; j < end - begin; ++j) {
      mean[begin + j] = DType(m[j]);
      deviations[begin + j] = DType(d[j]);
    }
  });
}

// NormalizeChannels of a matrix.
template <typename DType>
void NormalizeMatrix(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                     Tensor<cpu, 1, DType> inv_std, Tensor<cpu, 1, DType> gamma,
                     Tensor<cpu, 1, DType> beta, Tensor<cpu, 3, DType> xhat,
                     Tensor<cpu, 3, DType> out) {
  typedef Packet<DType> P;
  const index_t channels = x.size(1);
  const DType *m = mean.dptr_, *s = inv_std.dptr_, *g = gamma.dptr_,
              *b = beta.dptr_;
  ForChannelRanges(x.shape_, [&](index_t begin, index_t end) {
    ForRowPackets<DType>(
        x.size(0), begin, end,
        [&](index_t n, index_t c) {
          const index_t i = n * channels + c;
          const P normal =
              (P::LoadUnAligned(x.dptr_ + i) - P::LoadUnAligned(m + c)) *
              P::LoadUnAligned(s + c);
          normal.StoreUnAligned(xhat.dptr_ + i);
          (normal * P::LoadUnAligned(g + c) + P::LoadUnAligned(b + c))
              .StoreUnAligned(out.dptr_ + i);
        },
        [&](index_t n, index_t c) {
          const index_t i = n * channels + c;
          const DType normal = (x.dptr_[i] - m[c]) * s[c];
          xhat.dptr_[i] = normal;
          out.dptr_[i] = normal * g[c] + b[c];
        });
  });
}

// ChannelGradientSums of a matrix: each channel's sums in batch order.
template <typename DType>
void MatrixGradientSums(Tensor<cpu, 3, DType> grad, Tensor<cpu, 3, DType> xhat,
                        Tensor<cpu, 1, DType> sum_grad,
                        Tensor<cpu, 1, DType> sum_grad_xhat) {
  typedef Packet<DType> P;
  const index_t channels = grad.size(1);
  DType *sg = sum_grad.dptr_, *sgh = sum_grad_xhat.dptr_;
  ForChannelRanges(grad.shape_, [&](index_t begin, index_t end) {
    std::fill(sg + begin, sg + end, DType(0));
    std::fill(sgh + begin, sgh + end, DType(0));
    ForRowPackets<DType>(
        grad.size(0), begin, end,
        [&](index_t n, index_t c) {
          const P g = P::LoadUnAligned(grad.dptr_ + n * channels + c);
          const P h = P::LoadUnAligned(xhat.dptr_ + n * channels + c);
          (P::LoadUnAligned(sg + c) + g).StoreUnAligned(sg + c);
          (P::LoadUnAligned(sgh + c) + g * h).StoreUnAligned(sgh + c);
        },
        [&](index_t n, index_t c) {
          const DType g = grad.dptr_[n * channels + c];
          sg[c] += g;
          sgh[c] += g * xhat.dptr_[n * channels + c];
        });
  });
}

// NormalizeChannelGradient of a matrix.
template <typename DType>
void NormalizeMatrixGradient(Tensor<cpu, 3, DType> grad,
                             Tensor<cpu, 3, DType> xhat,
                             Tensor<cpu, 1, DType> gain,
                             Tensor<cpu, 1, DType> mean_grad,
                             Tensor<cpu, 1, DType> mean_grad_xhat,
                             Tensor<cpu, 3, DType> in_grad) {
  typedef Packet<DType> P;
  const index_t channels = grad.size(1);
  const DType *s = gain.dptr_, *a = mean_grad.dptr_, *b = mean_grad_xhat.dptr_;
  ForChannelRanges(grad.shape_, [&](index_t begin, index_t end) {
    ForRowPackets<DType>(
        grad.size(0), begin, end,
        [&](index_t n, index_t c) {
          const index_t i = n * channels + c;
          (P::LoadUnAligned(s + c) *
           (P::LoadUnAligned(grad.dptr_ + i) - P::LoadUnAligned(a + c) -
            P::LoadUnAligned(xhat.dptr_ + i) * P::LoadUnAligned(b + c)))
              .StoreUnAligned(in_grad.dptr_ + i);
        },
        [&](index_t n, index_t c) {
          const index_t i = n * channels + c;
          in_grad.dptr_[i] =
              s[c] * (grad.dptr_[i] - a[c] - xhat.dptr_[i] * b[c]);
        });
  });
}

}  // namespace

template <typename DType>
void ChannelMoments(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                    Tensor<cpu, 1, DType> deviations) {
  if (x.size(2) == 1) return MatrixMoments(x, mean, deviations);
  typedef Packet<DType> P;
  const index_t inner = x.size(2), channels = x.size(1);
  std::vector<DType> plane_means(x.size(0) * channels),
      plane_deviations(x.size(0) * channels);
  ForEachPlane(x.shape_, [&](index_t n, index_t c, index_t offset) {
    const DType* v = x.dptr_ + offset;
    const DType m = SumOf(v, inner) / DType(inner);
    const P pm = P::Fill(m);
    plane_means[n * channels + c] = m;
    plane_deviations[n * channels + c] = SumPlane<DType>(
        inner,
        [&](index_t i) {
          const P d = P::LoadUnAligned(v + i) - pm;
          return d * d;
        },
        [&](index_t i) { return (v[i] - m) * (v[i] - m); });
  });
  // Chan et al.: merging a plane (inner elements, mean m_p, deviations d_p)
  // into the planes before it (count, mean m, deviations d) shifts m by
  // (m_p - m) * inner / total and adds d_p + (m_p - m)^2 * count * inner /
  // total to d. In double: a channel can hold millions of elements. Each
  // channel merges its planes in batch order, the channels side by side, so
  // that their chains of divisions overlap.
  std::vector<double> m(channels, 0.0), d(channels, 0.0);
  for (index_t n = 0; n < x.size(0); ++n) {
    const double count = double(n * inner), total = count + double(inner);
    const DType* plane_mean = plane_means.data() + n * channels;
    const DType* plane_deviation = plane_deviations.data() + n * channels;
    for (index_t c = 0; c < channels; ++c) {
      const double shift = double(plane_mean[c]) - m[c];
      m[c] += shift * double(inner) / total;
      d[c] += double(plane_deviation[c]) +
              shift * shift * count * double(inner) / total;
    }
  }
  for (index_t c = 0; c < channels; ++c) {
    mean[c] = DType(m[c]);
    deviations[c] = DType(d[c]);
  }
}

template <typename DType>
void NormalizeChannels(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                       Tensor<cpu, 1, DType> inv_std,
                       Tensor<cpu, 1, DType> gamma, Tensor<cpu, 1, DType> beta,
                       Tensor<cpu, 3, DType> xhat, Tensor<cpu, 3, DType> out,
                       bool relu) {
  if (x.size(2) == 1) {
    if (relu) ThrowTensorError("batch_norm: relu fused on a matrix");
    return NormalizeMatrix(x, mean, inv_std, gamma, beta, xhat, out);
  }
  const index_t inner = x.size(2);
  const bool stream = PlanesAreWholeLines(xhat);
  ForEachPlane(
      x.shape_,
      [&](index_t n, index_t c, index_t offset) {
        const DType* v = x.dptr_ + offset;
        DType* h = xhat.dptr_ + offset;
        DType* o = out.dptr_ + offset;
        const DType m = mean[c], s = inv_std[c], g = gamma[c], b = beta[c];
        if (stream && relu) {
          NormalizePlane<true, true>(v, inner, m, s, g, b, h, o);
        } else if (stream) {
          NormalizePlane<true, false>(v, inner, m, s, g, b, h, o);
        } else if (relu) {
          NormalizePlane<false, true>(v, inner, m, s, g, b, h, o);
        } else {
          NormalizePlane<false, false>(v, inner, m, s, g, b, h, o);
        }
      },
      [&] {
        if (stream) packet::StreamingFence();
      });
}

template <typename DType>
void ChannelGradientSums(Tensor<cpu, 3, DType> grad, Tensor<cpu, 3, DType> xhat,
                         Tensor<cpu, 1, DType> sum_grad,
                         Tensor<cpu, 1, DType> sum_grad_xhat,
                         const ReluAfterAffine<DType>* relu) {
  if (grad.size(2) == 1) {
    if (relu) ThrowTensorError("batch_norm: relu fused on a matrix");
    return MatrixGradientSums(grad, xhat, sum_grad, sum_grad_xhat);
  }
  typedef Packet<DType> P;
  const index_t inner = grad.size(2), channels = grad.size(1);
  std::vector<DType> plane_grad(grad.size(0) * channels),
      plane_grad_xhat(grad.size(0) * channels);
  ForEachPlane(grad.shape_, [&](index_t n, index_t c, index_t offset) {
    DType* g = grad.dptr_ + offset;
    const DType* h = xhat.dptr_ + offset;
    if (relu) ApplyReluGradient(g, h, inner, relu->gamma[c], relu->beta[c]);
    plane_grad[n * channels + c] = SumOf(g, inner);
    plane_grad_xhat[n * channels + c] = SumPlane<DType>(
        inner,
        [&](index_t i) {
          return P::LoadUnAligned(g + i) * P::LoadUnAligned(h + i);
        },
        [&](index_t i) { return g[i] * h[i]; });
  });
  AddPlanes(plane_grad, grad.size(0), sum_grad);
  AddPlanes(plane_grad_xhat, grad.size(0), sum_grad_xhat);
}

template <typename DType>
void NormalizeChannelGradient(Tensor<cpu, 3, DType> grad,
                              Tensor<cpu, 3, DType> xhat,
                              Tensor<cpu, 1, DType> gain,
                              Tensor<cpu, 1, DType> mean_grad,
                              Tensor<cpu, 1, DType> mean_grad_xhat,
                              Tensor<cpu, 3, DType> in_grad) {
  if (grad.size(2) == 1) {
    return NormalizeMatrixGradient(grad, xhat, gain, mean_grad, mean_grad_xhat,
                                   in_grad);
  }
  typedef Packet<DType> P;
  const index_t inner = grad.size(2), k = P::kSize;
  ForEachPlane(grad.shape_, [&](index_t n, index_t c, index_t offset) {
    const DType* g = grad.dptr_ + offset;
    const DType* h = xhat.dptr_ + offset;
    DType* o = in_grad.dptr_ + offset;
    const DType s = gain[c], a = mean_grad[c], b = mean_grad_xhat[c];
    const P ps = P::Fill(s), pa = P::Fill(a), pb = P::Fill(b);
    index_t i = 0;
    for (; i + k <= inner; i += k) {
      (ps * (P::LoadUnAligned(g + i) - pa - P::LoadUnAligned(h + i) * pb))
          .StoreUnAligned(o + i);
    }
    for (; i < inner; ++i) o[i] = s * (g[i] - a - h[i] * b);
  });
}

#define UMBRA_BATCH_NORM_CPU(DType)                                          \
  template void ChannelMoments(Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>, \
                               Tensor<cpu, 1, DType>);                       \
  template void NormalizeChannels(                                           \
      Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>, Tensor<cpu, 1, DType>,   \
      Tensor<cpu, 1, DType>, Tensor<cpu, 1, DType>, Tensor<cpu, 3, DType>,   \
      Tensor<cpu, 3, DType>, bool);                                          \
  template void ChannelGradientSums(                                         \
      Tensor<cpu, 3, DType>, Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>,   \
      Tensor<cpu, 1, DType>, const ReluAfterAffine<DType>*);                 \
  template void NormalizeChannelGradient(                                    \
      Tensor<cpu, 3, DType>, Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>,   \
      Tensor<cpu, 1, DType>, Tensor<cpu, 1, DType>, Tensor<cpu, 3, DType>);
UMBRA_BATCH_NORM_CPU(float)
UMBRA_BATCH_NORM_CPU(double)
#undef UMBRA_BATCH_NORM_CPU

}  // namespace layers
}  // namespace umbra
