// 2-D pooling over the last two dimensions (height, width) of an expression
// of rank >= 2, and its gradient.
//
//   pool<Reducer>(src, ky, kx, sy, sx[, pad_y, pad_x])
//       window (ky, kx) <= padded size, stride (sy, sx), pad < window;
//       output rows OH = min(H + 2 pad_y - ky + sy - 1, H + 2 pad_y - 1)
//       / sy + 1 (ceil mode, as mshadow and cxxnet: the last window may
//       hang over the edge but starts inside), less one when it would
//       start in the bottom padding (as Caffe); likewise OW. Padded
//       positions are skipped: they never win a max, add nothing to a sum.
//   pool<Reducer>(src, Shape2(OH, OW), ky, kx, sy, sx[, pad_y, pad_x])
//       the same with an explicit output size (at most the one above).
//   unpool<Reducer>(data, pooled, grad_pooled, ky, kx, sy, sx[, pad_y, pad_x])
//       the gradient with respect to `data` of pool<Reducer>(data, ...) given
//       the pooled output and its gradient; shape of `data`.
// Reducers: red::maximum (max pooling; ties all receive the gradient),
// red::sum (sum pooling). Average pooling is sum pooling scaled by
// 1 / (ky * kx), padding counted: pool<red::sum>(...) * (1.0f / (ky * kx)),
// and likewise for unpool.
//
// Example (3x3 max pooling, stride 2, of a (N, C, H, W) batch):
//   using namespace umbra;
//   out = pool<red::maximum>(in, 3, 3, 2, 2);
//   gin = unpool<red::maximum>(in, out, gout, 3, 3, 2, 2);
#ifndef UMBRA_TENSOR_EXTENSION_POOLING_H_
#define UMBRA_TENSOR_EXTENSION_POOLING_H_

#include <algorithm>

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Window, stride, padding and sizes of a 2-D pooling.
struct PoolGeometry {
  index_t ksize_y, ksize_x, kstride_y, kstride_x, pad_y, pad_x;
  index_t src_height, src_width, pooled_height, pooled_width;
};

namespace detail {
// The pooled size of one dimension (see pooling.h's file comment).
inline index_t PooledSize(index_t size, index_t ksize, index_t stride,
                          index_t pad) {
  const index_t padded = size + 2 * pad;
  index_t out = std::min(padded - ksize + stride - 1, padded - 1) / stride + 1;
  if (pad > 0 && (out - 1) * stride >= size + pad) --out;
  return out;
}
// Checks the pooling parameters for a source of shape sshape and computes
// the pooled size (or checks pshape when it is not null).
template <int dim>
inline PoolGeometry MakePoolGeometry(const char* what, const Shape<dim>& sshape,
                                     const Shape<2>* pshape, index_t ksize_y,
                                     index_t ksize_x, index_t kstride_y,
                                     index_t kstride_x, index_t pad_y,
                                     index_t pad_x) {
  PoolGeometry g;
  g.ksize_y = ksize_y;
  g.ksize_x = ksize_x;
  g.kstride_y = kstride_y;
  g.kstride_x = kstride_x;
  g.pad_y = pad_y;
  g.pad_x = pad_x;
  g.src_height = sshape[dim - 2];
  g.src_width = sshape[dim - 1];
  if (ksize_y < 1 || ksize_x < 1 || kstride_y < 1 || kstride_x < 1 ||
      pad_y < 0 || pad_x < 0 || pad_y >= ksize_y || pad_x >= ksize_x) {
    ThrowTensorError(what,
                     ": need window >= 1, stride >= 1 and 0 <= pad < "
                     "window; got window (",
                     ksize_y, ", ", ksize_x, "), stride (", kstride_y, ", ",
                     kstride_x, "), pad (", pad_y, ", ", pad_x, ") for source ",
                     sshape);
  }
  if (g.src_height < 1 || g.src_width < 1 ||
      g.src_height + 2 * pad_y < ksize_y || g.src_width + 2 * pad_x < ksize_x) {
    ThrowTensorError(what, ": window (", ksize_y, ", ", ksize_x,
                     ") does not fit in the padded source ", sshape,
                     " with pad (", pad_y, ", ", pad_x, ")");
  }
  g.pooled_height = PooledSize(g.src_height, ksize_y, kstride_y, pad_y);
  g.pooled_width = PooledSize(g.src_width, ksize_x, kstride_x, pad_x);
  if (pshape != nullptr) {
    if ((*pshape)[0] < 1 || (*pshape)[1] < 1 ||
        (*pshape)[0] > g.pooled_height || (*pshape)[1] > g.pooled_width) {
      ThrowTensorError(
          what, ": output size ", *pshape, " must be between (1,1) and ",
          Shape2(g.pooled_height, g.pooled_width), " for source ", sshape);
    }
    g.pooled_height = (*pshape)[0];
    g.pooled_width = (*pshape)[1];
  }
  return g;
}
}  // namespace detail

// Pooling of the source with Reducer; see the file comment.
template <typename Reducer, typename SrcExp, typename DType, int srcdim>
struct PoolingExp
    : public MakeTensorExp<PoolingExp<Reducer, SrcExp, DType, srcdim>, SrcExp,
                           srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  PoolGeometry geom_;
  PoolingExp(const SrcExp& src, const Shape<2>* pshape, index_t ksize_y,
             index_t ksize_x, index_t kstride_y, index_t kstride_x,
             index_t pad_y, index_t pad_x)
      : src_(detail::HoldRef(src)) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    geom_ =
        detail::MakePoolGeometry("pool", this->shape_, pshape, ksize_y, ksize_x,
                                 kstride_y, kstride_x, pad_y, pad_x);
    this->shape_[srcdim - 2] = geom_.pooled_height;
    this->shape_[srcdim - 1] = geom_.pooled_width;
  }
};

template <typename Reducer, typename SrcExp, typename DType, int srcdim>
class Plan<PoolingExp<Reducer, SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const PoolingExp<Reducer, SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t py = i % g_.pooled_height;
    const index_t c = i / g_.pooled_height;
    index_t y_start = py * g_.kstride_y - g_.pad_y;
    index_t x_start = j * g_.kstride_x - g_.pad_x;
    const index_t y_end = y_start + g_.ksize_y < g_.src_height
                              ? y_start + g_.ksize_y
                              : g_.src_height;
    const index_t x_end = x_start + g_.ksize_x < g_.src_width
                              ? x_start + g_.ksize_x
                              : g_.src_width;
    if (y_start < 0) y_start = 0;
    if (x_start < 0) x_start = 0;
    DType res;
    Reducer::SetInitValue(res);
    for (index_t y = y_start; y < y_end; ++y) {
      for (index_t x = x_start; x < x_end; ++x) {
        Reducer::Reduce(res, src_.Eval(c * g_.src_height + y, x));
      }
    }
    return res;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  PoolGeometry g_;
};

template <typename Reducer, typename SrcExp, typename DType, int srcdim>
inline Plan<PoolingExp<Reducer, SrcExp, DType, srcdim>, DType> MakePlan(
    const PoolingExp<Reducer, SrcExp, DType, srcdim>& e) {
  return Plan<PoolingExp<Reducer, SrcExp, DType, srcdim>, DType>(e);
}

// pool<Reducer>(src, ksize_y, ksize_x, kstride_y, kstride_x, pad_y, pad_x).
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> pool(
    const Exp<SrcExp, DType, etype>& src, index_t ksize_y, index_t ksize_x,
    index_t kstride_y, index_t kstride_x, index_t pad_y = 0,
    index_t pad_x = 0) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "pool: the source must have rank >= 2 (..., height, width)");
  return PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), nullptr, ksize_y, ksize_x, kstride_y, kstride_x, pad_y,
      pad_x);
}
// pool<Reducer>(src, Shape2(OH, OW), ...): with an explicit output size.
template <typename Reducer, typename SrcExp, typename DType, int etype>
inline PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim> pool(
    const Exp<SrcExp, DType, etype>& src, Shape<2> pshape, index_t ksize_y,
    index_t ksize_x, index_t kstride_y, index_t kstride_x, index_t pad_y = 0,
    index_t pad_x = 0) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "pool: the source must have rank >= 2 (..., height, width)");
  return PoolingExp<Reducer, SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), &pshape, ksize_y, ksize_x, kstride_y, kstride_x, pad_y,
      pad_x);
}

// Gradient of pooling with respect to its input; see the file comment.
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
struct UnPoolingExp
    : public MakeTensorExp<
          UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
          SrcExp, srcdim, DType> {
  typename ExpHolder<SrcExp>::type data_src_;
  typename ExpHolder<PooledExp>::type data_pooled_;
  typename ExpHolder<GradExp>::type grad_pooled_;
  PoolGeometry geom_;
  UnPoolingExp(const SrcExp& data_src, const PooledExp& data_pooled,
               const GradExp& grad_pooled, const Shape<2>* pshape,
               index_t ksize_y, index_t ksize_x, index_t kstride_y,
               index_t kstride_x, index_t pad_y, index_t pad_x)
      : data_src_(detail::HoldRef(data_src)),
        data_pooled_(detail::HoldRef(data_pooled)),
        grad_pooled_(detail::HoldRef(grad_pooled)) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(data_src);
    geom_ =
        detail::MakePoolGeometry("unpool", this->shape_, pshape, ksize_y,
                                 ksize_x, kstride_y, kstride_x, pad_y, pad_x);
    Shape<srcdim> want = this->shape_;
    want[srcdim - 2] = geom_.pooled_height;
    want[srcdim - 1] = geom_.pooled_width;
    const Shape<srcdim> pooled =
        ShapeCheck<srcdim, PooledExp>::Check(data_pooled);
    const Shape<srcdim> grad = ShapeCheck<srcdim, GradExp>::Check(grad_pooled);
    if (pooled != want || grad != want) {
      ThrowTensorError("unpool: pooled output ", pooled, " and its gradient ",
                       grad, " must both have shape ", want, " for source ",
                       this->shape_);
    }
  }
};

template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
class Plan<UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
           DType> {
 public:
  explicit Plan(
      const UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>& e)
      : data_src_(MakePlan(e.data_src_)),
        data_pooled_(MakePlan(e.data_pooled_)),
        grad_pooled_(MakePlan(e.grad_pooled_)),
        g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % g_.src_height + g_.pad_y;
    const index_t x = j + g_.pad_x;
    const index_t c = i / g_.src_height;
    const DType vsrc = data_src_.Eval(i, j);
    // Windows py with py * stride <= y < py * stride + ksize.
    const index_t py_min =
        y < g_.ksize_y ? 0 : (y - g_.ksize_y) / g_.kstride_y + 1;
    const index_t px_min =
        x < g_.ksize_x ? 0 : (x - g_.ksize_x) / g_.kstride_x + 1;
    const index_t py_lim = y / g_.kstride_y + 1;
    const index_t px_lim = x / g_.kstride_x + 1;
    const index_t py_max =
        py_lim < g_.pooled_height ? py_lim : g_.pooled_height;
    const index_t px_max = px_lim < g_.pooled_width ? px_lim : g_.pooled_width;
    DType val = DType(0);
    for (index_t py = py_min; py < py_max; ++py) {
      for (index_t px = px_min; px < px_max; ++px) {
        const index_t row = c * g_.pooled_height + py;
        val = DType(
            val + DType(Reducer::PartialGrad(vsrc, data_pooled_.Eval(row, px)) *
                        grad_pooled_.Eval(row, px)));
      }
    }
    return val;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> data_src_;
  Plan<typename ExpHolder<PooledExp>::type, DType> data_pooled_;
  Plan<typename ExpHolder<GradExp>::type, DType> grad_pooled_;
  PoolGeometry g_;
};

template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int srcdim>
inline Plan<UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
            DType>
MakePlan(
    const UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>& e) {
  return Plan<UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType, srcdim>,
              DType>(e);
}

// unpool<Reducer>(data_src, data_pooled, grad_pooled, ksize_y, ksize_x,
// kstride_y, kstride_x, pad_y, pad_x): d(loss)/d(data_src) of
// data_pooled = pool<Reducer>(data_src, ...) given grad_pooled =
// d(loss)/d(data_pooled).
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int e1, int e2, int e3>
inline UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                    ExpInfo<SrcExp>::kDim>
unpool(const Exp<SrcExp, DType, e1>& data_src,
       const Exp<PooledExp, DType, e2>& data_pooled,
       const Exp<GradExp, DType, e3>& grad_pooled, index_t ksize_y,
       index_t ksize_x, index_t kstride_y, index_t kstride_x, index_t pad_y = 0,
       index_t pad_x = 0) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2 &&
                    ExpInfo<PooledExp>::kDim == ExpInfo<SrcExp>::kDim &&
                    ExpInfo<GradExp>::kDim == ExpInfo<SrcExp>::kDim,
                "unpool: source, pooled output and gradient must have the "
                "same rank >= 2");
  return UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                      ExpInfo<SrcExp>::kDim>(
      data_src.self(), data_pooled.self(), grad_pooled.self(), nullptr, ksize_y,
      ksize_x, kstride_y, kstride_x, pad_y, pad_x);
}
// unpool<Reducer>(data_src, data_pooled, grad_pooled, Shape2(OH, OW), ...):
// for pooling with an explicit output size.
template <typename Reducer, typename SrcExp, typename PooledExp,
          typename GradExp, typename DType, int e1, int e2, int e3>
inline UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                    ExpInfo<SrcExp>::kDim>
unpool(const Exp<SrcExp, DType, e1>& data_src,
       const Exp<PooledExp, DType, e2>& data_pooled,
       const Exp<GradExp, DType, e3>& grad_pooled, Shape<2> pshape,
       index_t ksize_y, index_t ksize_x, index_t kstride_y, index_t kstride_x,
       index_t pad_y = 0, index_t pad_x = 0) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2 &&
                    ExpInfo<PooledExp>::kDim == ExpInfo<SrcExp>::kDim &&
                    ExpInfo<GradExp>::kDim == ExpInfo<SrcExp>::kDim,
                "unpool: source, pooled output and gradient must have the "
                "same rank >= 2");
  return UnPoolingExp<Reducer, SrcExp, PooledExp, GradExp, DType,
                      ExpInfo<SrcExp>::kDim>(
      data_src.self(), data_pooled.self(), grad_pooled.self(), &pshape, ksize_y,
      ksize_x, kstride_y, kstride_x, pad_y, pad_x);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_POOLING_H_
