// Pooling across channels (dimension rank-3 of a (..., C, H, W) expression)
// and its gradient: the building blocks of local response normalisation.
//
//   chpool<Reducer>(src, nsize)               window nsize (odd), stride 1,
//                                             pad nsize / 2: same shape as src
//   chpool<Reducer>(src, nsize, stride, pad)  output channel k reduces input
//       channels [k * stride - pad, k * stride - pad + nsize) that exist;
//       OC = (C + 2 pad - nsize) / stride + 1
//   ch_unpool<Reducer>(data, pooled, grad_pooled, nsize[, stride, pad])
//       the gradient with respect to `data` of chpool<Reducer>(data, ...)
//
// Example (LRN forward, as in cxxnet):
//   using namespace umbra;
//   norm = chpool<red::sum>(F<op::square>(in), nsize) * (alpha / nsize) + k;
//   out = in * F<op::pow>(norm, -beta);
#ifndef UMBRA_TENSOR_EXTENSION_CHANNEL_POOL_H_
#define UMBRA_TENSOR_EXTENSION_CHANNEL_POOL_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Window and sizes of a channel pooling.
struct ChannelPoolGeometry {
  index_t nsize, stride, pad;
  index_t channel, height, pooled_channel;
};

namespace detail {
template <int dim>
inline ChannelPoolGeometry MakeChannelPoolGeometry(const char* what,
                                                   const Shape<dim>& sshape,
                                                   index_t nsize,
                                                   index_t stride,
                                                   index_t pad) {
  ChannelPoolGeometry g;
  g.nsize = nsize;
  g.stride = stride;
  g.pad = pad;
  g.channel = sshape[dim - 3];
  g.height = sshape[dim - 2];
  if (nsize < 1 || stride < 1 || pad < 0 || pad >= nsize ||
      g.channel + 2 * pad < nsize) {
    ThrowTensorError(what,
                     ": need window >= 1, stride >= 1, 0 <= pad < "
                     "window and window <= channels + 2 pad; got window ",
                     nsize, ", stride ", stride, ", pad ", pad, " for source ",
                     sshape);
  }
  g.pooled_channel = (g.channel + 2 * pad - nsize) / stride + 1;
  return g;
}
}  // namespace detail

// Channel pooling; see the file comment.
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct ChannelPoolingExp
    : public MakeTensorExp<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>,
                           SrcExp, srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  ChannelPoolGeometry geom_;
  ChannelPoolingExp(const SrcExp& src, index_t nsize, index_t stride,
                    index_t pad)
      : src_(detail::HoldRef(src)) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    geom_ = detail::MakeChannelPoolGeometry("chpool", this->shape_, nsize,
                                            stride, pad);
    this->shape_[srcdim - 3] = geom_.pooled_channel;
  }
};

template <typename Reducer, typename SrcExp, typename DType, int srcdim>
class Plan<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % g_.height;
    const index_t idivh = i / g_.height;
    const index_t c = idivh % g_.pooled_channel;
    const index_t n = idivh / g_.pooled_channel;
    const index_t start = c * g_.stride - g_.pad;
    const index_t cstart = start < 0 ? 0 : start;
    const index_t cend =
        start + g_.nsize < g_.channel ? start + g_.nsize : g_.channel;
    DType res;
    Reducer::SetInitValue(res);
    for (index_t cc = cstart; cc < cend; ++cc) {
      Reducer::Reduce(res, src_.Eval((n * g_.channel + cc) * g_.height + y, j));
    }
    return res;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  ChannelPoolGeometry g_;
};

template <typename Reducer, typename SrcExp, typename DType, int srcdim>
inline Plan<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>, DType> MakePlan(
    const ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>& e) {
  return Plan<ChannelPoolingExp<Reducer, SrcExp, DType, srcdim>, DType>(e);
}

// chpool<Reducer>(src, nsize, stride, pad).
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> chpool(
    const Exp<SrcExp, DType, etype>& src, index_t nsize, index_t stride,
    index_t pad) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3,
                "chpool: the source must have rank >= 3 (..., channel, "
                "height, width)");
  return ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), nsize, stride, pad);
}
// chpool<Reducer>(src, nsize): odd window centred on every channel; the
// result has the shape of src.
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline ChannelPoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> chpool(
    const Exp<SrcExp, DType, etype>& src, index_t nsize) {
  if (nsize % 2 != 1) {
    ThrowTensorError("chpool: the centred window must be odd, got ", nsize);
  }
  return chpool<Reducer>(src, nsize, 1, nsize / 2);
}

// Gradient of channel pooling with respect to its input.
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
struct ChannelUnpoolingExp
    : public MakeTensorExp<ChannelUnpoolingExp<Reducer, SrcExp, PooledExp,
                                               GradExp, DType, srcdim>,
                           SrcExp, srcdim, DType> {
  typename ExpHolder<SrcExp>::type data_src_;
  typename ExpHolder<PooledExp>::type data_pooled_;
  typename ExpHolder<GradExp>::type grad_pooled_;
  ChannelPoolGeometry geom_;
  ChannelUnpoolingExp(const SrcExp& data_src, const PooledExp& data_pooled,
                      const GradExp& grad_pooled, index_t nsize, index_t stride,
                      index_t pad)
      : data_src_(detail::HoldRef(data_src)),
        data_pooled_(detail::HoldRef(data_pooled)),
        grad_pooled_(detail::HoldRef(grad_pooled)) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(data_src);
    geom_ = detail::MakeChannelPoolGeometry("ch_unpool", this->shape_, nsize,
                                            stride, pad);
    Shape<srcdim> want = this->shape_;
    want[srcdim - 3] = geom_.pooled_channel;
    const Shape<srcdim> pooled =
        ShapeCheck<srcdim, PooledExp>::Check(data_pooled);
    const Shape<srcdim> grad = ShapeCheck<srcdim, GradExp>::Check(grad_pooled);
    if (pooled != want || grad != want) {
      ThrowTensorError("ch_unpool: pooled output ", pooled,
                       " and its gradient ", grad, " must both have shape ",
                       want, " for source ", this->shape_);
    }
  }
};

template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
class Plan<
    ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
    DType> {
 public:
  explicit Plan(const ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp,
                                          DType, srcdim>& e)
      : data_src_(MakePlan(e.data_src_)),
        data_pooled_(MakePlan(e.data_pooled_)),
        grad_pooled_(MakePlan(e.grad_pooled_)),
        g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % g_.height;
    const index_t idivh = i / g_.height;
    const index_t c = idivh % g_.channel + g_.pad;
    const index_t n = idivh / g_.channel;
    const DType vsrc = data_src_.Eval(i, j);
    // Output channels k with k * stride <= c < k * stride + nsize.
    const index_t k_min = c < g_.nsize ? 0 : (c - g_.nsize) / g_.stride + 1;
    const index_t k_lim = c / g_.stride + 1;
    const index_t k_max = k_lim < g_.pooled_channel ? k_lim : g_.pooled_channel;
    DType val = DType(0);
    for (index_t k = k_min; k < k_max; ++k) {
      const index_t row = (n * g_.pooled_channel + k) * g_.height + y;
      val = DType(val +
                  DType(Reducer::PartialGrad(vsrc, data_pooled_.Eval(row, j)) *
                        grad_pooled_.Eval(row, j)));
    }
    return val;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> data_src_;
  Plan<typename ExpHolder<PooledExp>::type, DType> data_pooled_;
  Plan<typename ExpHolder<GradExp>::type, DType> grad_pooled_;
  ChannelPoolGeometry g_;
};

template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
inline Plan<
    ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
    DType>
MakePlan(const ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                                   srcdim>& e) {
  return Plan<
      ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
      DType>(e);
}

// ch_unpool<Reducer>(data_src, data_pooled, grad_pooled, nsize, stride, pad):
// d(loss)/d(data_src) of data_pooled = chpool<Reducer>(data_src, nsize,
// stride, pad) given grad_pooled = d(loss)/d(data_pooled).
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int e1, int e2, int e3>
inline ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                           ExpInfo<SrcExp>::kDim>
ch_unpool(const Exp<SrcExp, DType, e1>& data_src,
          const Exp<PooledExp, DType, e2>& data_pooled,
          const Exp<GradExp, DType, e3>& grad_pooled, index_t nsize,
          index_t stride, index_t pad) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3 &&
                    ExpInfo<PooledExp>::kDim == ExpInfo<SrcExp>::kDim &&
                    ExpInfo<GradExp>::kDim == ExpInfo<SrcExp>::kDim,
                "ch_unpool: source, pooled output and gradient must have the "
                "same rank >= 3");
  return ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                             ExpInfo<SrcExp>::kDim>(
      data_src.self(), data_pooled.self(), grad_pooled.self(), nsize, stride,
      pad);
}
// ch_unpool<Reducer>(data_src, data_pooled, grad_pooled, nsize): for the
// centred chpool<Reducer>(src, nsize).
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int e1, int e2, int e3>
inline ChannelUnpoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                           ExpInfo<SrcExp>::kDim>
ch_unpool(const Exp<SrcExp, DType, e1>& data_src,
          const Exp<PooledExp, DType, e2>& data_pooled,
          const Exp<GradExp, DType, e3>& grad_pooled, index_t nsize) {
  if (nsize % 2 != 1) {
    ThrowTensorError("ch_unpool: the centred window must be odd, got ", nsize);
  }
  return ch_unpool<Reducer>(data_src, data_pooled, grad_pooled, nsize, 1,
                            nsize / 2);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_CHANNEL_POOL_H_
