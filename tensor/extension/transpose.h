// transpose(src, axes): the axes of an expression permuted; dimension k of
// the result is dimension axes[k] of src. Lazy: nothing is copied until the
// result is assigned.
//
// Example:
//   using namespace umbra;
//   // (N, C, H, W) -> (N, H, W, C)
//   nhwc = transpose(nchw, Shape4(0, 2, 3, 1));
#ifndef UMBRA_TENSOR_EXTENSION_TRANSPOSE_H_
#define UMBRA_TENSOR_EXTENSION_TRANSPOSE_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// The source with its dimensions permuted by axes.
template <typename SrcExp, typename DType, int dimsrc>
struct TransposeExExp
    : public MakeTensorExp<TransposeExExp<SrcExp, DType, dimsrc>, SrcExp,
                           dimsrc, DType> {
  typename ExpHolder<SrcExp>::type src_;
  // Distance in source elements (row-major, unpadded) of one step along
  // each result dimension.
  Shape<dimsrc> src_stride_;
  // Last dimension of the source.
  index_t src_last_;
  TransposeExExp(const SrcExp& src, Shape<dimsrc> axes)
      : src_(detail::HoldRef(src)) {
    const Shape<dimsrc> sshape = ShapeCheck<dimsrc, SrcExp>::Check(src);
    bool seen[dimsrc] = {};
    for (int k = 0; k < dimsrc; ++k) {
      if (axes[k] < 0 || axes[k] >= dimsrc || seen[axes[k]]) {
        ThrowTensorError("transpose: axes ", axes,
                         " are not a permutation of 0..", dimsrc - 1,
                         " (source ", sshape, ")");
      }
      seen[axes[k]] = true;
    }
    Shape<dimsrc> stride;
    stride[dimsrc - 1] = 1;
    for (int k = dimsrc - 2; k >= 0; --k) {
      stride[k] = stride[k + 1] * sshape[k + 1];
    }
    for (int k = 0; k < dimsrc; ++k) {
      this->shape_[k] = sshape[axes[k]];
      src_stride_[k] = stride[axes[k]];
    }
    src_last_ = sshape[dimsrc - 1];
  }
};

template <typename SrcExp, typename DType, int dimsrc>
class Plan<TransposeExExp<SrcExp, DType, dimsrc>, DType> {
 public:
  explicit Plan(const TransposeExExp<SrcExp, DType, dimsrc>& e)
      : src_(MakePlan(e.src_)),
        dshape_(e.shape_),
        src_stride_(e.src_stride_),
        src_last_(e.src_last_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    index_t sidx = j * src_stride_[dimsrc - 1];
    UMBRA_PRAGMA_UNROLL
    for (int k = dimsrc - 2; k >= 0; --k) {
      sidx += i % dshape_[k] * src_stride_[k];
      i /= dshape_[k];
    }
    return src_.Eval(sidx / src_last_, sidx % src_last_);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  Shape<dimsrc> dshape_, src_stride_;
  index_t src_last_;
};

template <typename SrcExp, typename DType, int dimsrc>
inline Plan<TransposeExExp<SrcExp, DType, dimsrc>, DType> MakePlan(
    const TransposeExExp<SrcExp, DType, dimsrc>& e) {
  return Plan<TransposeExExp<SrcExp, DType, dimsrc>, DType>(e);
}

// transpose(src, axes): result dimension k is source dimension axes[k];
// axes must be a permutation of 0..rank-1.
template <typename SrcExp, typename DType, int etype, int dimsrc>
inline TransposeExExp<SrcExp, DType, dimsrc> transpose(
    const Exp<SrcExp, DType, etype>& src, Shape<dimsrc> axes) {
  static_assert(ExpInfo<SrcExp>::kDim == dimsrc,
                "transpose(src, axes): axes must have one entry per "
                "dimension of src");
  return TransposeExExp<SrcExp, DType, dimsrc>(src.self(), axes);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_TRANSPOSE_H_
