// The update rules for the cpu, in float and double, and the one-pass
// momentum and Adam steps they use.
#include <algorithm>
#include <cmath>

#include "train/optim/update_rules.h"

namespace umbra {
namespace optim {
namespace {

// Elements [begin, end) of one sgd (kNesterov false) or nag step: SgdStep's
// or NagStep's formula element by element, then the gradient set to zero.
// Float runs in packets from `begin` on, so that begin on a packet boundary
// gives every element the same code path whatever the split.
template <typename DType, bool kNesterov>
void MomentumStepRange(DType* __restrict w, DType* __restrict m,
                       DType* __restrict g, index_t begin, index_t end,
                       DType clip, DType lr, DType wd, DType momentum) {
  index_t i = begin;
  if constexpr (std::is_same<DType, float>::value) {
    using P = packet::Packet<float, UMBRA_DEFAULT_PACKET>;
    // Clipping has no packet form; a clipped step takes the scalar loop.
    if (clip <= 0) {
      const P pmomentum = P::Fill(momentum), plr = P::Fill(lr),
              pwd = P::Fill(wd), zero = P::Fill(0.0f);
      for (; i + P::kSize <= end; i += P::kSize) {
        const P wi = P::LoadUnAligned(w + i);
        const P grad = P::LoadUnAligned(g + i) + pwd * wi;
        const P mi = pmomentum * P::LoadUnAligned(m + i) - plr * grad;
        mi.StoreUnAligned(m + i);
        (kNesterov ? wi + pmomentum * mi - plr * grad : wi + mi)
            .StoreUnAligned(w + i);
        zero.StoreUnAligned(g + i);
      }
    }
  }
  for (; i < end; ++i) {
    const DType gi = clip > 0 ? op::clip_gradient::Map(g[i], clip) : g[i];
    const DType grad = gi + wd * w[i];
    const DType mi = momentum * m[i] - lr * grad;
    m[i] = mi;
    w[i] = kNesterov ? w[i] + momentum * mi - lr * grad : w[i] + mi;
    g[i] = DType(0);
  }
}

// Elements [begin, end) of one adam (kDecoupled false) or adamw step:
// AdamStep's formula element by element, then the gradient set to zero;
// float in packets from `begin` on, as MomentumStepRange.
template <typename DType, bool kDecoupled>
void AdamStepRange(DType* __restrict w, DType* __restrict m,
                   DType* __restrict v, DType* __restrict g, index_t begin,
                   index_t end, const AdamStepScalars<DType>& s) {
  const DType step = DType(s.bias.step_size);
  const DType inv_root_c2 = DType(s.bias.inv_root_c2);
  const DType one = DType(1), decay = s.lr * s.wd;
  index_t i = begin;
  if constexpr (std::is_same<DType, float>::value) {
    using P = packet::Packet<float, UMBRA_DEFAULT_PACKET>;
    if (s.clip <= 0) {
      const P pbeta1 = P::Fill(s.beta1), pbeta2 = P::Fill(s.beta2),
              prest1 = P::Fill(one - s.beta1), prest2 = P::Fill(one - s.beta2),
              pwd = P::Fill(s.wd), pdecay = P::Fill(decay),
              pstep = P::Fill(step), pinv_root_c2 = P::Fill(inv_root_c2),
              pepsilon = P::Fill(s.epsilon), zero = P::Fill(0.0f);
      for (; i + P::kSize <= end; i += P::kSize) {
        const P wi = P::LoadUnAligned(w + i);
        const P grad = kDecoupled ? P::LoadUnAligned(g + i)
                                  : P::LoadUnAligned(g + i) + pwd * wi;
        const P mi = pbeta1 * P::LoadUnAligned(m + i) + prest1 * grad;
        const P vi = pbeta2 * P::LoadUnAligned(v + i) + prest2 * (grad * grad);
        mi.StoreUnAligned(m + i);
        vi.StoreUnAligned(v + i);
        const P moved =
            wi - pstep * (mi / (Sqrt(vi) * pinv_root_c2 + pepsilon));
        (kDecoupled ? moved - pdecay * wi : moved).StoreUnAligned(w + i);
        zero.StoreUnAligned(g + i);
      }
    }
  }
  for (; i < end; ++i) {
    const DType gi = s.clip > 0 ? op::clip_gradient::Map(g[i], s.clip) : g[i];
    const DType grad = kDecoupled ? gi : gi + s.wd * w[i];
    const DType mi = s.beta1 * m[i] + (one - s.beta1) * grad;
    const DType vi = s.beta2 * v[i] + (one - s.beta2) * (grad * grad);
    m[i] = mi;
    v[i] = vi;
    const DType moved =
        w[i] - step * (mi / (std::sqrt(vi) * inv_root_c2 + s.epsilon));
    w[i] = kDecoupled ? moved - decay * w[i] : moved;
    g[i] = DType(0);
  }
}

// Runs step_range(begin, end) over [0, size): on the calling thread below
// the parallel threshold, else one range per thread. One range per thread,
// not up to four claimed as they go (as in layers' ParallelRanges and the
// expression engine): those made a momentum step on the MLP's fc1 1.6 to
// 1.9x slower in update_steps_bench. Cut points are on multiples of 64
// elements, a packet boundary for every type and packet width, so the split
// never changes a result.
template <typename StepRange>
void ForThreadRanges(index_t size, const StepRange& step_range) {
  const int parts = size >= GetParallelThreshold() ? GetNumThreads() : 1;
  if (parts == 1) return step_range(0, size);
  const index_t units = (size + 63) / 64;
  ParallelFor(parts, [&](int part) {
    step_range(std::min(size, units * part / parts * 64),
               std::min(size, units * (part + 1) / parts * 64));
  });
}

}  // namespace

template <typename DType>
void FusedMomentumStepCpu(Tensor<cpu, 1, DType> w, Tensor<cpu, 1, DType> m,
                          Tensor<cpu, 1, DType> g, DType clip, DType lr,
                          DType wd, DType momentum, bool nesterov) {
  const auto step_range = nesterov ? MomentumStepRange<DType, true>
                                   : MomentumStepRange<DType, false>;
  ForThreadRanges(w.size(0), [&](index_t begin, index_t end) {
    step_range(w.dptr_, m.dptr_, g.dptr_, begin, end, clip, lr, wd, momentum);
  });
}

template <typename DType>
void FusedAdamStepCpu(Tensor<cpu, 1, DType> w, Tensor<cpu, 1, DType> m,
                      Tensor<cpu, 1, DType> v, Tensor<cpu, 1, DType> g,
                      const AdamStepScalars<DType>& s, bool decoupled) {
  const auto step_range =
      decoupled ? AdamStepRange<DType, true> : AdamStepRange<DType, false>;
  ForThreadRanges(w.size(0), [&](index_t begin, index_t end) {
    step_range(w.dptr_, m.dptr_, v.dptr_, g.dptr_, begin, end, s);
  });
}

template void FusedMomentumStepCpu<float>(Tensor<cpu, 1, float>,
                                          Tensor<cpu, 1, float>,
                                          Tensor<cpu, 1, float>, float, float,
                                          float, float, bool);
template void FusedMomentumStepCpu<double>(Tensor<cpu, 1, double>,
                                           Tensor<cpu, 1, double>,
                                           Tensor<cpu, 1, double>, double,
                                           double, double, double, bool);

template void FusedAdamStepCpu<float>(Tensor<cpu, 1, float>,
                                      Tensor<cpu, 1, float>,
                                      Tensor<cpu, 1, float>,
                                      Tensor<cpu, 1, float>,
                                      const AdamStepScalars<float>&, bool);
template void FusedAdamStepCpu<double>(Tensor<cpu, 1, double>,
                                       Tensor<cpu, 1, double>,
                                       Tensor<cpu, 1, double>,
                                       Tensor<cpu, 1, double>,
                                       const AdamStepScalars<double>&, bool);

UMBRA_OPTIM_INSTANTIATE_RULES(cpu, float);
UMBRA_OPTIM_INSTANTIATE_RULES(cpu, double);

}  // namespace optim
}  // namespace umbra
