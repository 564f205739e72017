// concat<d>(a, b): two assignable expressions (tensors, slices, concats)
// joined along dimension d; every other dimension must agree. The result
// can be read in any expression and assigned to: `concat<1>(a, b) = expr`
// writes the first channels of expr into a and the rest into b.
//
// Example:
//   using namespace umbra;
//   // channel concatenation of two branches and its gradient split
//   out = concat<1>(branch_a, branch_b);
//   concat<1>(grad_a, grad_b) = grad_out;
#ifndef UMBRA_TENSOR_EXTENSION_CONCAT_H_
#define UMBRA_TENSOR_EXTENSION_CONCAT_H_

#include "tensor/expr_engine.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace expr {

// src1_ followed by src2_ along dimension dimcat.
template <typename LhsExp, typename RhsExp, typename Device, typename DType,
          int srcdim, int dimcat>
struct ConcatExp
    : public TRValue<ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>,
                     Device, srcdim, DType> {
  typename ExpHolder<LhsExp>::type src1_;
  typename ExpHolder<RhsExp>::type src2_;
  Shape<srcdim> shape_;
  // Rows of the 2-D views below one index of the dimensions before dimcat:
  // in the result (ch_), src1_ (ch_src1_) and src2_ (ch_src2_). For dimcat =
  // last they are the sizes of the last dimension.
  index_t ch_, ch_src1_, ch_src2_;
  ConcatExp(const LhsExp& src1, const RhsExp& src2)
      : src1_(detail::HoldRef(src1)), src2_(detail::HoldRef(src2)) {
    const Shape<srcdim> s1 = ShapeCheck<srcdim, LhsExp>::Check(src1);
    const Shape<srcdim> s2 = ShapeCheck<srcdim, RhsExp>::Check(src2);
    for (int i = 0; i < srcdim; ++i) {
      if (i != dimcat && s1[i] != s2[i]) {
        ThrowTensorError("concat<", dimcat, ">: shapes ", s1, " and ", s2,
                         " differ outside dimension ", dimcat);
      }
    }
    shape_ = s1;
    shape_[dimcat] = s1[dimcat] + s2[dimcat];
    const index_t middle = s1.ProdShape(dimcat + 1, srcdim - 1);
    if (dimcat == srcdim - 1) {
      ch_ = shape_[dimcat];
      ch_src1_ = s1[dimcat];
      ch_src2_ = s2[dimcat];
    } else {
      ch_ = shape_[dimcat] * middle;
      ch_src1_ = s1[dimcat] * middle;
      ch_src2_ = s2[dimcat] * middle;
    }
  }
  ConcatExp(const ConcatExp&) = default;
  // Assignment writes the elements of both sources.
  inline ConcatExp& operator=(const ConcatExp& exp) {
    return this->__assign(exp);
  }
  template <typename E, int etype>
  inline ConcatExp& operator=(const Exp<E, DType, etype>& exp) {
    return this->__assign(exp);
  }
  inline ConcatExp& operator=(const DType& s) { return this->__assign(s); }
};

template <typename LhsExp, typename RhsExp, typename Device, typename DType,
          int srcdim, int dimcat>
class Plan<ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>, DType> {
 public:
  explicit Plan(
      const ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>& e)
      : src1_(MakePlan(e.src1_)),
        src2_(MakePlan(e.src2_)),
        ch_(e.ch_),
        ch_src1_(e.ch_src1_),
        ch_src2_(e.ch_src2_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    if (dimcat == srcdim - 1) {
      return j < ch_src1_ ? src1_.Eval(i, j) : src2_.Eval(i, j - ch_src1_);
    }
    const index_t y = i % ch_;
    const index_t lead = i / ch_;
    return y < ch_src1_ ? src1_.Eval(lead * ch_src1_ + y, j)
                        : src2_.Eval(lead * ch_src2_ + y - ch_src1_, j);
  }
  UMBRA_XINLINE DType& REval(index_t i, index_t j) {
    if (dimcat == srcdim - 1) {
      return j < ch_src1_ ? src1_.REval(i, j) : src2_.REval(i, j - ch_src1_);
    }
    const index_t y = i % ch_;
    const index_t lead = i / ch_;
    return y < ch_src1_ ? src1_.REval(lead * ch_src1_ + y, j)
                        : src2_.REval(lead * ch_src2_ + y - ch_src1_, j);
  }

 private:
  Plan<typename ExpHolder<LhsExp>::type, DType> src1_;
  Plan<typename ExpHolder<RhsExp>::type, DType> src2_;
  index_t ch_, ch_src1_, ch_src2_;
};

template <typename LhsExp, typename RhsExp, typename Device, typename DType,
          int srcdim, int dimcat>
inline Plan<ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>, DType>
MakePlan(const ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>& e) {
  return Plan<ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>, DType>(
      e);
}

template <typename LhsExp, typename RhsExp, typename Device, typename DType,
          int srcdim, int dimcat>
struct ExpInfo<ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, dimcat>> {
  static const int kDim = srcdim;
  static const int kDevMask = Device::kDevMask;
};

template <int dim, typename LhsExp, typename RhsExp, typename Device,
          typename DType, int dimcat>
struct ShapeCheck<dim, ConcatExp<LhsExp, RhsExp, Device, DType, dim, dimcat>> {
  inline static Shape<dim> Check(
      const ConcatExp<LhsExp, RhsExp, Device, DType, dim, dimcat>& e) {
    return e.shape_;
  }
};

// concat<cdim>(src1, src2): src1 then src2 along dimension cdim; both must
// be assignable (tensors, slices or concats) on the same device.
template <int cdim, typename LhsExp, typename RhsExp, typename Device,
          typename DType, int srcdim>
inline ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, cdim> concat(
    const TRValue<LhsExp, Device, srcdim, DType>& src1,
    const TRValue<RhsExp, Device, srcdim, DType>& src2) {
  static_assert(0 <= cdim && cdim < srcdim,
                "concat<d>(a, b): d must be a dimension of a and b");
  return ConcatExp<LhsExp, RhsExp, Device, DType, srcdim, cdim>(src1.self(),
                                                                src2.self());
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_CONCAT_H_
