// Reductions.
//
// To a 1-D tensor (one value per index of the kept dimension; assigned with
// =, += or -=, optionally scaled, never nested in other expressions):
//   sumall_except_dim<d>(src)           sum over every dimension but d
//   sum_rows(mat)                       sum over the rows of a 2-D expression
//                                       (one value per column)
//   reduce_except_dim<Reducer, d>(src)  the same with any red:: reducer
// Along one axis (lazy chainers that nest anywhere):
//   reduce_with_axis<Reducer, mask>(src, axis)  drops `axis`; with
//       mask = true the result is the index of the reduced value (argmax
//       with red::maximum, argmin with red::minimum), as DType
//   reduce_keepdim<Reducer, mask>(src, axis)    the same, `axis` kept as 1
//
// Example:
//   using namespace umbra;
//   gbias = sumall_except_dim<1>(grad_out);            // conv bias gradient
//   gbias += sum_rows(grad_fc) * 0.5f;                  // fc bias, scaled
//   pred = reduce_with_axis<red::maximum, true>(prob, 1);  // argmax per row
//   prob = prob - broadcast_keepdim(
//                     reduce_keepdim<red::maximum, false>(prob, 1), 1, k);
#ifndef UMBRA_TENSOR_EXTENSION_REDUCE_H_
#define UMBRA_TENSOR_EXTENSION_REDUCE_H_

#include <algorithm>
#include <type_traits>
#include <vector>

#include "tensor/expr_engine.h"
#include "tensor/extension/reshape.h"
#include "tensor/packet.h"
#include "tensor/tensor_core.h"
#include "tensor/threads.h"

namespace umbra {
namespace expr {

// Reduces SrcExp with Reducer over every dimension but dimkeep, then scales
// by scale_. Only assignable to a 1-D tensor of size shape[dimkeep].
template <typename SrcExp, typename DType, typename Reducer, int dimkeep>
struct ReduceTo1DExp
    : public Exp<ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>, DType,
                 type::kComplex> {
  typename ExpHolder<SrcExp>::type src_;
  DType scale_;
  ReduceTo1DExp(const SrcExp& src, DType scale)
      : src_(detail::HoldRef(src)), scale_(scale) {}
};

// reduce_except_dim<Reducer, dimkeep>(src): dst[i] = Reducer over all
// elements of src whose index along dimkeep is i.
template <typename Reducer, int dimkeep, typename SrcExp, typename DType,
          int etype>
inline ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep> reduce_except_dim(
    const Exp<SrcExp, DType, etype>& src) {
  static_assert(ExpInfo<SrcExp>::kDim > dimkeep && dimkeep >= 0,
                "reduce_except_dim<Reducer, d>(src): d must be a dimension "
                "of src");
  static_assert(etype != type::kComplex,
                "reduce_except_dim: assign dot() to a tensor first");
  return ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>(src.self(), DType(1));
}

// sumall_except_dim<dimkeep>(src): dst[i] = sum of src over all elements
// whose index along dimkeep is i.
template <int dimkeep, typename SrcExp, typename DType, int etype>
inline ReduceTo1DExp<SrcExp, DType, red::sum, dimkeep> sumall_except_dim(
    const Exp<SrcExp, DType, etype>& src) {
  return reduce_except_dim<red::sum, dimkeep>(src);
}

// sum_rows(mat): dst[x] = sum over y of mat[y][x], for a 2-D expression.
template <typename SrcExp, typename DType, int etype>
inline ReduceTo1DExp<SrcExp, DType, red::sum, 1> sum_rows(
    const Exp<SrcExp, DType, etype>& src) {
  static_assert(ExpInfo<SrcExp>::kDim == 2,
                "sum_rows(mat): mat must be a 2-D expression");
  return sumall_except_dim<1>(src);
}

// reduction * scale: still one pass.
template <typename SrcExp, typename DType, typename Reducer, int dimkeep>
inline ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep> operator*(
    const ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>& e,
    typename detail::NonDeduced<DType>::type scale) {
  return ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>(
      e.src_, DType(e.scale_ * scale));
}
template <typename SrcExp, typename DType, typename Reducer, int dimkeep>
inline ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep> operator*(
    typename detail::NonDeduced<DType>::type scale,
    const ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>& e) {
  return e * scale;
}

}  // namespace expr

// The CPU evaluation of ReduceTo1DExp. A GPU backend adds overloads taking
// Tensor<gpu, 1, DType>* beside these; ExpComplexEngine picks by device.
//
// dst[x] <SV> scale * Reducer over y of the 2-D view of src (dimkeep is the
// last dimension). Each column is reduced in ascending row order whatever
// the thread count.
template <typename SV, typename Reducer, typename DType, typename E>
inline void MapReduceKeepLowest(Tensor<cpu, 1, DType>* dst, const E& src,
                                const Shape<2>& sshape, DType scale) {
  using expr::MakePlan;
  const auto plan_init = MakePlan(src);
  const index_t rows = sshape[0], cols = sshape[1];
  Tensor<cpu, 1, DType> out = *dst;
  // Columns per task: whole cache lines, at least 64 columns.
  const index_t work = rows * cols;
  const int ntasks = work < GetParallelThreshold()
                         ? 1
                         : static_cast<int>(std::min<index_t>(
                               GetNumThreads(), (cols + 63) / 64));
  ParallelFor(std::max(ntasks, 1), [&](int task) {
    const index_t x0 = cols * task / std::max(ntasks, 1);
    const index_t x1 = cols * (task + 1) / std::max(ntasks, 1);
    if (x0 >= x1) return;
    const auto plan = plan_init;
    std::vector<DType> acc(x1 - x0);
    for (auto& a : acc) Reducer::SetInitValue(a);
    for (index_t y = 0; y < rows; ++y) {
      for (index_t x = x0; x < x1; ++x) {
        Reducer::Reduce(acc[x - x0], plan.Eval(y, x));
      }
    }
    for (index_t x = x0; x < x1; ++x) {
      SV::template Save<DType>(out[x], DType(acc[x - x0] * scale));
    }
  });
}

namespace reduce_detail {

// Whether rows of E are summed with packets.
template <typename Reducer, typename E>
constexpr bool kPacketSum = std::is_same<Reducer, red::sum>::value&&
    expr::PacketCheck<E, UMBRA_DEFAULT_PACKET>::kPass;

// The plan a reduction evaluates src with: the packet plan for a packet sum.
template <typename Reducer, typename E>
inline auto MakeReducePlan(const E& src) {
  if constexpr (kPacketSum<Reducer, E>) {
    return expr::MakePacketPlan<UMBRA_DEFAULT_PACKET>(src);
  } else {
    return expr::MakePlan(src);
  }
}

// Reducer over row y's elements 0 .. last - 1: with packets for a sum (four
// accumulators, so the additions are not one long chain, then the scalar
// tail), else element by element. The same order whatever the threads.
template <typename Reducer, typename DType, typename E, typename Plan>
inline DType ReduceRow(const Plan& plan, index_t y, index_t last) {
  DType row;
  Reducer::SetInitValue(row);
  index_t x = 0;
  if constexpr (kPacketSum<Reducer, E>) {
    row = packet::SumPackets(&x, last, [&](index_t i) {
            return plan.EvalPacket(y, i);
          }).Sum();
  }
  for (; x < last; ++x) Reducer::Reduce(row, plan.Eval(y, x));
  return row;
}

}  // namespace reduce_detail

// dst[c] <SV> scale * Reducer over every element of src whose index along
// dimkeep is c; src is viewed as (pre, channels, mid, last) with rows
// (p * channels + c) * mid + m. Each row is reduced first (with packets
// for a sum), then the rows.
template <typename SV, typename Reducer, typename DType, typename E, int dim>
inline void MapReduceKeepHighDim(Tensor<cpu, 1, DType>* dst, const E& src,
                                 const Shape<dim>& sshape, int dimkeep,
                                 DType scale) {
  const auto plan_init = reduce_detail::MakeReducePlan<Reducer>(src);
  const index_t pre = sshape.ProdShape(0, dimkeep);
  const index_t channels = sshape[dimkeep];
  const index_t mid = sshape.ProdShape(dimkeep + 1, dim - 1);
  const index_t last = sshape[dim - 1];
  Tensor<cpu, 1, DType> out = *dst;
  const int ntasks =
      sshape.Size() < GetParallelThreshold()
          ? 1
          : static_cast<int>(std::min<index_t>(GetNumThreads(), channels));
  ParallelFor(std::max(ntasks, 1), [&](int task) {
    const auto plan = plan_init;
    const index_t c0 = channels * task / std::max(ntasks, 1);
    const index_t c1 = channels * (task + 1) / std::max(ntasks, 1);
    for (index_t c = c0; c < c1; ++c) {
      DType res;
      Reducer::SetInitValue(res);
      for (index_t p = 0; p < pre; ++p) {
        for (index_t m = 0; m < mid; ++m) {
          const index_t y = (p * channels + c) * mid + m;
          Reducer::Reduce(
              res, reduce_detail::ReduceRow<Reducer, DType, E>(plan, y, last));
        }
      }
      SV::template Save<DType>(out[c], DType(res * scale));
    }
  });
}

namespace expr {

// dst <SV> reduce_except_dim<Reducer, dimkeep>(src) * scale.
template <typename SV, typename Device, typename DType, typename SrcExp,
          typename Reducer, int dimkeep>
struct ExpComplexEngine<SV, Tensor<Device, 1, DType>,
                        ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>, DType> {
  static const int kSrcDim = ExpInfo<SrcExp>::kDim;
  static_assert(TypeCheck<Device, 1, DType, SrcExp>::kRedPass,
                "reduce_except_dim / sumall_except_dim: the source must be "
                "on the destination's device and have rank >= 2");
  inline static void Eval(
      Tensor<Device, 1, DType>* dst,
      const ReduceTo1DExp<SrcExp, DType, Reducer, dimkeep>& exp) {
    const Shape<kSrcDim> sshape = ShapeCheck<kSrcDim, SrcExp>::Check(exp.src_);
    if (dst->shape_[0] != sshape[dimkeep]) {
      ThrowTensorError("reduce_except_dim<", dimkeep, "> (", Reducer::kName,
                       "): destination ", dst->shape_,
                       " does not match dimension ", dimkeep, " of source ",
                       sshape);
    }
    if constexpr (dimkeep == kSrcDim - 1) {
      MapReduceKeepLowest<SV, Reducer>(dst, exp.src_, sshape.FlatTo2D(),
                                       exp.scale_);
    } else {
      MapReduceKeepHighDim<SV, Reducer>(dst, exp.src_, sshape, dimkeep,
                                        exp.scale_);
    }
  }
};

// Reduces the dimsrc-D source along axis with Reducer; the result has rank
// dimsrc - 1. With mask, the result is the index of the reduced element
// along axis (the first one on ties).
template <typename Reducer, typename SrcExp, typename DType, int dimsrc,
          bool mask>
struct ReduceWithAxisExp
    : public MakeTensorExp<
          ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>, SrcExp,
          dimsrc - 1, DType> {
  typename ExpHolder<SrcExp>::type src_;
  // Product of the source dimensions after axis.
  index_t trailing_;
  // Size of the reduced axis.
  index_t size_;
  // Last dimension of the source.
  index_t last_;
  ReduceWithAxisExp(const SrcExp& src, int axis) : src_(detail::HoldRef(src)) {
    const Shape<dimsrc> sshape = ShapeCheck<dimsrc, SrcExp>::Check(src);
    if (axis < 0 || axis >= dimsrc) {
      ThrowTensorError("reduce_with_axis: axis ", axis, " out of range [0, ",
                       dimsrc - 1, "] for source ", sshape);
    }
    if (sshape[axis] == 0) {
      ThrowTensorError("reduce_with_axis: axis ", axis,
                       " of the source is empty: ", sshape);
    }
    for (int i = 0; i < axis; ++i) this->shape_[i] = sshape[i];
    for (int i = axis + 1; i < dimsrc; ++i) this->shape_[i - 1] = sshape[i];
    size_ = sshape[axis];
    trailing_ = sshape.ProdShape(axis + 1, dimsrc);
    last_ = sshape[dimsrc - 1];
  }
};

template <typename Reducer, typename SrcExp, typename DType, int dimsrc,
          bool mask>
class Plan<ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>, DType> {
 public:
  explicit Plan(
      const ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>& e)
      : src_(MakePlan(e.src_)),
        dst_last_(e.shape_[dimsrc - 2]),
        trailing_(e.trailing_),
        size_(e.size_),
        last_(e.last_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t idx = i * dst_last_ + j;
    const index_t lead = idx / trailing_;
    const index_t rest = idx % trailing_;
    const index_t base = lead * size_ * trailing_ + rest;
    DType res;
    Reducer::SetInitValue(res);
    index_t best = 0;
    for (index_t k = 0; k < size_; ++k) {
      const index_t z = base + k * trailing_;
      const DType prev = res;
      Reducer::Reduce(res, src_.Eval(z / last_, z % last_));
      if (mask && !(res == prev)) best = k;
    }
    return mask ? DType(best) : res;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t dst_last_, trailing_, size_, last_;
};

template <typename Reducer, typename SrcExp, typename DType, int dimsrc,
          bool mask>
inline Plan<ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>, DType>
MakePlan(const ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>& e) {
  return Plan<ReduceWithAxisExp<Reducer, SrcExp, DType, dimsrc, mask>, DType>(
      e);
}

// reduce_with_axis<Reducer, mask>(src, axis): src reduced along `axis`,
// which disappears from the shape; (3, 4, 5) along axis 1 gives (3, 5).
// With mask = true the values are the indices along axis of the reduced
// elements (argmax for red::maximum).
template <typename Reducer, bool mask, typename SrcExp, typename DType,
          int etype>
inline ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask>
reduce_with_axis(const Exp<SrcExp, DType, etype>& src, int axis) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "reduce_with_axis: the source must have rank >= 2 (use "
                "reduce_except_dim or sumall_except_dim for 1-D results)");
  return ReduceWithAxisExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim, mask>(
      src.self(), axis);
}

// reduce_keepdim<Reducer, mask>(src, axis): like reduce_with_axis, but the
// reduced axis stays in the shape with size 1; (3, 4, 5) along axis 1 gives
// (3, 1, 5).
template <typename Reducer, bool mask, typename SrcExp, typename DType,
          int etype>
inline ReshapeExp<MakeTensorExp<ReduceWithAxisExp<Reducer, SrcExp, DType,
                                                  ExpInfo<SrcExp>::kDim, mask>,
                                SrcExp, ExpInfo<SrcExp>::kDim - 1, DType>,
                  DType, ExpInfo<SrcExp>::kDim, ExpInfo<SrcExp>::kDim - 1>
reduce_keepdim(const Exp<SrcExp, DType, etype>& src, int axis) {
  const int kDim = ExpInfo<SrcExp>::kDim;
  const auto reduced = reduce_with_axis<Reducer, mask>(src, axis);
  Shape<kDim> kept = ShapeCheck<kDim, SrcExp>::Check(src.self());
  kept[axis] = 1;
  return reshape(reduced, kept);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_REDUCE_H_
