// cxxnet's insanity displacement: each element of an image moved by at most
// one pixel, at random, and the adjoint that takes gradients back.
//
//   displace(src, mask, keep)       element (.., y, x) of the result is the
//                                   source element at disp(y, x)
//   displace_grad(grad, mask, keep) the gradient with respect to src of
//                                   displace: each source element gets the
//                                   sum of the gradients of the elements
//                                   that took it
//   unpool_first_max(data, pooled, grad, geometry)
//                                   the gradient of max pooling `data` that
//                                   gives each window's gradient to the
//                                   first element (row by row) equal to its
//                                   maximum: a displaced image holds copies
//                                   of one source element, which must not
//                                   each take the gradient (unpool's ties
//                                   all would)
//
// with mask of src's shape holding u ~ U(0, 1) per element and d =
// (1 - keep) / 4: disp(y, x) is (y, x) when u < keep, else (y - 1, x),
// (y + 1, x), (y, x - 1) or (y, x + 1) for u in the next four intervals of
// width d, each clamped to the image (an element at the border that would
// leave it stays). Rank >= 2, (..., height, width).
//
// Example (insanity max pooling, training):
//   displaced = displace(in, mask, 0.8f);
//   out = pool<red::maximum>(displaced, 3, 3, 2, 2);
//   gdisplaced = unpool_first_max(displaced, out, gout, geometry);
//   gin = displace_grad(gdisplaced, mask, 0.8f);
#ifndef UMBRA_LAYERS_DISPLACEMENT_H_
#define UMBRA_LAYERS_DISPLACEMENT_H_

#include "tensor/expr_engine.h"
#include "tensor/extension/pooling.h"

namespace umbra {
namespace expr {

// Where element (y, x) of a height x width image takes its value from, for
// uniform draw u (see the file comment).
struct Displacement {
  float keep;
  index_t height, width;

  template <typename DType>
  UMBRA_XINLINE void From(DType u, index_t y, index_t x, index_t* from_y,
                          index_t* from_x) const {
    const DType d = (DType(1) - DType(keep)) / DType(4);
    *from_y = y;
    *from_x = x;
    if (u < DType(keep)) return;
    if (u < DType(keep) + d) {
      if (y > 0) *from_y = y - 1;
    } else if (u < DType(keep) + 2 * d) {
      if (y + 1 < height) *from_y = y + 1;
    } else if (u < DType(keep) + 3 * d) {
      if (x > 0) *from_x = x - 1;
    } else if (x + 1 < width) {
      *from_x = x + 1;
    }
  }
};

// kGrad = false: displace; true: displace_grad.
template <bool kGrad, typename SrcExp, typename MaskExp, typename DType,
          int dim>
struct DisplaceExp
    : public MakeTensorExp<DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>,
                           SrcExp, dim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  typename ExpHolder<MaskExp>::type mask_;
  Displacement disp_;
  DisplaceExp(const SrcExp& src, const MaskExp& mask, float keep)
      : src_(detail::HoldRef(src)), mask_(detail::HoldRef(mask)) {
    this->shape_ = ShapeCheck<dim, SrcExp>::Check(src);
    const Shape<dim> mshape = ShapeCheck<dim, MaskExp>::Check(mask);
    if (mshape != this->shape_) {
      ThrowTensorError("displace: the mask ", mshape, " and the source ",
                       this->shape_, " differ in shape");
    }
    disp_ = {keep, this->shape_[dim - 2], this->shape_[dim - 1]};
  }
};

template <bool kGrad, typename SrcExp, typename MaskExp, typename DType,
          int dim>
class Plan<DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>, DType> {
 public:
  explicit Plan(const DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>& e)
      : src_(MakePlan(e.src_)), mask_(MakePlan(e.mask_)), disp_(e.disp_) {}
  // Row i of the (..., height) rows, column x.
  UMBRA_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % disp_.height;
    const index_t plane = i - y;
    index_t from_y, from_x;
    if (!kGrad) {
      disp_.From(mask_.Eval(i, x), y, x, &from_y, &from_x);
      return src_.Eval(plane + from_y, from_x);
    }
    // The elements that may take (y, x): itself and its four neighbours.
    const index_t ys[5] = {y, y + 1, y - 1, y, y};
    const index_t xs[5] = {x, x, x, x + 1, x - 1};
    DType sum = DType(0);
    for (int k = 0; k < 5; ++k) {
      if (ys[k] < 0 || ys[k] >= disp_.height || xs[k] < 0 ||
          xs[k] >= disp_.width) {
        continue;
      }
      disp_.From(mask_.Eval(plane + ys[k], xs[k]), ys[k], xs[k], &from_y,
                 &from_x);
      if (from_y == y && from_x == x) sum += src_.Eval(plane + ys[k], xs[k]);
    }
    return sum;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  Plan<typename ExpHolder<MaskExp>::type, DType> mask_;
  Displacement disp_;
};

template <bool kGrad, typename SrcExp, typename MaskExp, typename DType,
          int dim>
inline Plan<DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>, DType> MakePlan(
    const DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>& e) {
  return Plan<DisplaceExp<kGrad, SrcExp, MaskExp, DType, dim>, DType>(e);
}

template <typename SrcExp, typename MaskExp, typename DType, int etype1,
          int etype2>
inline DisplaceExp<false, SrcExp, MaskExp, DType, ExpInfo<SrcExp>::kDim>
displace(const Exp<SrcExp, DType, etype1>& src,
         const Exp<MaskExp, DType, etype2>& mask, float keep) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "displace: the source must have rank >= 2 (..., h, w)");
  return DisplaceExp<false, SrcExp, MaskExp, DType, ExpInfo<SrcExp>::kDim>(
      src.self(), mask.self(), keep);
}

template <typename GradExp, typename MaskExp, typename DType, int etype1,
          int etype2>
inline DisplaceExp<true, GradExp, MaskExp, DType, ExpInfo<GradExp>::kDim>
displace_grad(const Exp<GradExp, DType, etype1>& grad,
              const Exp<MaskExp, DType, etype2>& mask, float keep) {
  static_assert(ExpInfo<GradExp>::kDim >= 2,
                "displace_grad: the gradient must have rank >= 2 (..., h, w)");
  return DisplaceExp<true, GradExp, MaskExp, DType, ExpInfo<GradExp>::kDim>(
      grad.self(), mask.self(), keep);
}

// Max pooling's gradient to the first maximum of each window.
template <typename SrcExp, typename PooledExp, typename GradExp, typename DType,
          int dim>
struct UnpoolFirstMaxExp
    : public MakeTensorExp<
          UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>, SrcExp,
          dim, DType> {
  typename ExpHolder<SrcExp>::type data_;
  typename ExpHolder<PooledExp>::type pooled_;
  typename ExpHolder<GradExp>::type grad_;
  PoolGeometry geom_;
  UnpoolFirstMaxExp(const SrcExp& data, const PooledExp& pooled,
                    const GradExp& grad, const PoolGeometry& geom)
      : data_(detail::HoldRef(data)),
        pooled_(detail::HoldRef(pooled)),
        grad_(detail::HoldRef(grad)),
        geom_(geom) {
    this->shape_ = ShapeCheck<dim, SrcExp>::Check(data);
    Shape<dim> want = this->shape_;
    want[dim - 2] = geom.pooled_height;
    want[dim - 1] = geom.pooled_width;
    if (this->shape_[dim - 2] != geom.src_height ||
        this->shape_[dim - 1] != geom.src_width ||
        ShapeCheck<dim, PooledExp>::Check(pooled) != want ||
        ShapeCheck<dim, GradExp>::Check(grad) != want) {
      ThrowTensorError("unpool_first_max: source ", this->shape_,
                       ", pooled output and gradient do not fit the pooling "
                       "geometry");
    }
  }
};

template <typename SrcExp, typename PooledExp, typename GradExp, typename DType,
          int dim>
class Plan<UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>, DType> {
 public:
  explicit Plan(
      const UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>& e)
      : data_(MakePlan(e.data_)),
        pooled_(MakePlan(e.pooled_)),
        grad_(MakePlan(e.grad_)),
        g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t x) const {
    const index_t y = i % g_.src_height;
    const index_t plane = i - y;
    const index_t c = i / g_.src_height;
    const DType value = data_.Eval(i, x);
    DType sum = DType(0);
    // The windows (py, px) that hold (y, x): py * stride - pad <= y <
    // py * stride - pad + ksize.
    for (index_t py = 0; py < g_.pooled_height; ++py) {
      const index_t y0 = py * g_.kstride_y - g_.pad_y;
      if (y < y0 || y >= y0 + g_.ksize_y) continue;
      for (index_t px = 0; px < g_.pooled_width; ++px) {
        const index_t x0 = px * g_.kstride_x - g_.pad_x;
        if (x < x0 || x >= x0 + g_.ksize_x) continue;
        const index_t row = c * g_.pooled_height + py;
        const DType max = pooled_.Eval(row, px);
        if (value != max || EarlierMax(plane, y0, x0, y, x, max)) continue;
        sum += grad_.Eval(row, px);
      }
    }
    return sum;
  }

 private:
  // Whether an element of the window at (y0, x0) before (y, x), row by
  // row, equals max.
  UMBRA_XINLINE bool EarlierMax(index_t plane, index_t y0, index_t x0,
                                index_t y, index_t x, DType max) const {
    for (index_t yy = y0 < 0 ? 0 : y0; yy <= y; ++yy) {
      const index_t x_end = yy < y ? x0 + g_.ksize_x : x;
      for (index_t xx = x0 < 0 ? 0 : x0; xx < x_end && xx < g_.src_width;
           ++xx) {
        if (data_.Eval(plane + yy, xx) == max) return true;
      }
    }
    return false;
  }

  Plan<typename ExpHolder<SrcExp>::type, DType> data_;
  Plan<typename ExpHolder<PooledExp>::type, DType> pooled_;
  Plan<typename ExpHolder<GradExp>::type, DType> grad_;
  PoolGeometry g_;
};

template <typename SrcExp, typename PooledExp, typename GradExp, typename DType,
          int dim>
inline Plan<UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>, DType>
MakePlan(const UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>& e) {
  return Plan<UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType, dim>, DType>(
      e);
}

template <typename SrcExp, typename PooledExp, typename GradExp, typename DType,
          int e1, int e2, int e3>
inline UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType,
                         ExpInfo<SrcExp>::kDim>
unpool_first_max(const Exp<SrcExp, DType, e1>& data,
                 const Exp<PooledExp, DType, e2>& pooled,
                 const Exp<GradExp, DType, e3>& grad,
                 const PoolGeometry& geometry) {
  return UnpoolFirstMaxExp<SrcExp, PooledExp, GradExp, DType,
                           ExpInfo<SrcExp>::kDim>(data.self(), pooled.self(),
                                                  grad.self(), geometry);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_LAYERS_DISPLACEMENT_H_
