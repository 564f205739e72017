#include "layers/batch_norm_cpu.h"

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
// shape on the pool; offset is the plane's first element.
template <typename Fn>
void ForEachPlane(const Shape<3>& shape, const Fn& plane) {
  const index_t channels = shape[1], inner = shape[2];
  ParallelRanges(shape[0] * channels, shape.Size(), kMinParallelWork,
                 [&](index_t begin, index_t end) {
                   for (index_t p = begin; p < end; ++p) {
                     plane(p / channels, p % channels, p * inner);
                   }
                 });
}

// The sums of `terms` (a function of an element index giving a packet, and
// of one giving a scalar) over [0, len): four packet accumulators, then the
// scalar tail, always in this order.
template <typename DType, typename PacketTerm, typename ScalarTerm>
DType SumPlane(index_t len, const PacketTerm& packet_term,
               const ScalarTerm& scalar_term) {
  typedef Packet<DType> P;
  const index_t k = P::kSize;
  P acc[4] = {P::Fill(DType(0)), P::Fill(DType(0)), P::Fill(DType(0)),
              P::Fill(DType(0))};
  index_t i = 0;
  for (; i + 4 * k <= len; i += 4 * k) {
    for (int j = 0; j < 4; ++j) acc[j] = acc[j] + packet_term(i + j * k);
  }
  for (; i + k <= len; i += k) acc[0] = acc[0] + packet_term(i);
  DType sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])).Sum();
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

}  // namespace

template <typename DType>
void ChannelMoments(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                    Tensor<cpu, 1, DType> deviations) {
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
  // total to d. In double: a channel can hold millions of elements.
  for (index_t c = 0; c < channels; ++c) {
    double count = 0, m = 0, d = 0;
    for (index_t n = 0; n < x.size(0); ++n) {
      const double shift = double(plane_means[n * channels + c]) - m;
      const double total = count + double(inner);
      m += shift * double(inner) / total;
      d += double(plane_deviations[n * channels + c]) +
           shift * shift * count * double(inner) / total;
      count = total;
    }
    mean[c] = DType(m);
    deviations[c] = DType(d);
  }
}

template <typename DType>
void NormalizeChannels(Tensor<cpu, 3, DType> x, Tensor<cpu, 1, DType> mean,
                       Tensor<cpu, 1, DType> inv_std,
                       Tensor<cpu, 1, DType> gamma, Tensor<cpu, 1, DType> beta,
                       Tensor<cpu, 3, DType> xhat, Tensor<cpu, 3, DType> out) {
  typedef Packet<DType> P;
  const index_t inner = x.size(2), k = P::kSize;
  ForEachPlane(x.shape_, [&](index_t n, index_t c, index_t offset) {
    const DType* v = x.dptr_ + offset;
    DType* h = xhat.dptr_ + offset;
    DType* o = out.dptr_ + offset;
    const DType m = mean[c], s = inv_std[c], g = gamma[c], b = beta[c];
    const P pm = P::Fill(m), ps = P::Fill(s), pg = P::Fill(g), pb = P::Fill(b);
    index_t i = 0;
    for (; i + k <= inner; i += k) {
      const P normal = (P::LoadUnAligned(v + i) - pm) * ps;
      normal.StoreUnAligned(h + i);
      (normal * pg + pb).StoreUnAligned(o + i);
    }
    for (; i < inner; ++i) {
      const DType normal = (v[i] - m) * s;
      h[i] = normal;
      o[i] = normal * g + b;
    }
  });
}

template <typename DType>
void ChannelGradientSums(Tensor<cpu, 3, DType> grad, Tensor<cpu, 3, DType> xhat,
                         Tensor<cpu, 1, DType> sum_grad,
                         Tensor<cpu, 1, DType> sum_grad_xhat) {
  typedef Packet<DType> P;
  const index_t inner = grad.size(2), channels = grad.size(1);
  std::vector<DType> plane_grad(grad.size(0) * channels),
      plane_grad_xhat(grad.size(0) * channels);
  ForEachPlane(grad.shape_, [&](index_t n, index_t c, index_t offset) {
    const DType* g = grad.dptr_ + offset;
    const DType* h = xhat.dptr_ + offset;
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
      Tensor<cpu, 3, DType>);                                                \
  template void ChannelGradientSums(                                         \
      Tensor<cpu, 3, DType>, Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>,   \
      Tensor<cpu, 1, DType>);                                                \
  template void NormalizeChannelGradient(                                    \
      Tensor<cpu, 3, DType>, Tensor<cpu, 3, DType>, Tensor<cpu, 1, DType>,   \
      Tensor<cpu, 1, DType>, Tensor<cpu, 1, DType>, Tensor<cpu, 3, DType>);
UMBRA_BATCH_NORM_CPU(float)
UMBRA_BATCH_NORM_CPU(double)
#undef UMBRA_BATCH_NORM_CPU

}  // namespace layers
}  // namespace umbra
