// slice<d>(src, begin, end): indices [begin, end) of dimension d of a tensor
// (or of another assignable expression: slice, concat). The result can be
// read in any expression and assigned to: `slice<1>(t, 2, 5) = expr` writes
// channels 2..4 of t in place.
//
// Example:
//   using namespace umbra;
//   // split a (N, 2C, H, W) gradient into two (N, C, H, W) halves
//   ga = slice<1>(grad, 0, c);
//   gb = slice<1>(grad, c, 2 * c);
//   slice<1>(out, 0, c) += a;  // accumulate into the first half
#ifndef UMBRA_TENSOR_EXTENSION_SLICE_H_
#define UMBRA_TENSOR_EXTENSION_SLICE_H_

#include "tensor/expr_engine.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace expr {

// Indices [begin, begin + shape_[dimslice]) of dimension dimslice of src_.
template <typename SrcExp, typename Device, typename DType, int srcdim,
          int dimslice>
struct SliceExp
    : public TRValue<SliceExp<SrcExp, Device, DType, srcdim, dimslice>, Device,
                     srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  Shape<srcdim> shape_;
  // Rows of the 2-D views below one index of the dimensions before
  // dimslice: in the result (ch_), in the source (ch_old_), and the first
  // such row taken (ch_begin_). For dimslice = last, ch_begin_ is begin.
  index_t ch_, ch_old_, ch_begin_;
  SliceExp(const SrcExp& src, index_t begin, index_t end)
      : src_(detail::HoldRef(src)) {
    const Shape<srcdim> sshape = ShapeCheck<srcdim, SrcExp>::Check(src);
    if (begin < 0 || begin > end || end > sshape[dimslice]) {
      ThrowTensorError("slice<", dimslice, ">: range [", begin, ", ", end,
                       ") is not within dimension ", dimslice, " of source ",
                       sshape);
    }
    shape_ = sshape;
    shape_[dimslice] = end - begin;
    const index_t middle = sshape.ProdShape(dimslice + 1, srcdim - 1);
    if (dimslice == srcdim - 1) {
      ch_ = ch_old_ = 1;
      ch_begin_ = begin;
    } else {
      ch_ = shape_[dimslice] * middle;
      ch_old_ = sshape[dimslice] * middle;
      ch_begin_ = begin * middle;
    }
  }
  SliceExp(const SliceExp&) = default;
  // Assignment writes the selected elements of the source.
  inline SliceExp& operator=(const SliceExp& exp) {
    return this->__assign(exp);
  }
  template <typename E, int etype>
  inline SliceExp& operator=(const Exp<E, DType, etype>& exp) {
    return this->__assign(exp);
  }
  inline SliceExp& operator=(const DType& s) { return this->__assign(s); }
};

template <typename SrcExp, typename Device, typename DType, int srcdim,
          int dimslice>
class Plan<SliceExp<SrcExp, Device, DType, srcdim, dimslice>, DType> {
 public:
  explicit Plan(const SliceExp<SrcExp, Device, DType, srcdim, dimslice>& e)
      : src_(MakePlan(e.src_)),
        ch_(e.ch_),
        ch_old_(e.ch_old_),
        ch_begin_(e.ch_begin_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    if (dimslice == srcdim - 1) return src_.Eval(i, j + ch_begin_);
    return src_.Eval(i / ch_ * ch_old_ + i % ch_ + ch_begin_, j);
  }
  UMBRA_XINLINE DType& REval(index_t i, index_t j) {
    if (dimslice == srcdim - 1) return src_.REval(i, j + ch_begin_);
    return src_.REval(i / ch_ * ch_old_ + i % ch_ + ch_begin_, j);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t ch_, ch_old_, ch_begin_;
};

template <typename SrcExp, typename Device, typename DType, int srcdim,
          int dimslice>
inline Plan<SliceExp<SrcExp, Device, DType, srcdim, dimslice>, DType> MakePlan(
    const SliceExp<SrcExp, Device, DType, srcdim, dimslice>& e) {
  return Plan<SliceExp<SrcExp, Device, DType, srcdim, dimslice>, DType>(e);
}

template <typename SrcExp, typename Device, typename DType, int srcdim,
          int dimslice>
struct ExpInfo<SliceExp<SrcExp, Device, DType, srcdim, dimslice>> {
  static const int kDim = srcdim;
  static const int kDevMask = Device::kDevMask;
};

template <int dim, typename SrcExp, typename Device, typename DType,
          int dimslice>
struct ShapeCheck<dim, SliceExp<SrcExp, Device, DType, dim, dimslice>> {
  inline static Shape<dim> Check(
      const SliceExp<SrcExp, Device, DType, dim, dimslice>& e) {
    return e.shape_;
  }
};

// slice<sdim>(src, begin, end): indices [begin, end) of dimension sdim of
// the assignable src.
template <int sdim, typename SrcExp, typename Device, typename DType,
          int srcdim>
inline SliceExp<SrcExp, Device, DType, srcdim, sdim> slice(
    const TRValue<SrcExp, Device, srcdim, DType>& src, index_t begin,
    index_t end) {
  static_assert(0 <= sdim && sdim < srcdim,
                "slice<d>(src, begin, end): d must be a dimension of src");
  return SliceExp<SrcExp, Device, DType, srcdim, sdim>(src.self(), begin, end);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_SLICE_H_
