// reshape(src, shape): the elements of src, in row-major order, viewed with
// another shape of the same size (any rank). Lazy: nothing is copied, and
// the source may be any expression, strided tensors included.
//
// Example:
//   using namespace umbra;
//   // (batch, 1, 28, 28) images as (batch, 784) rows for a fully connected
//   // layer
//   flat = reshape(images, Shape2(batch, 784));
#ifndef UMBRA_TENSOR_EXTENSION_RESHAPE_H_
#define UMBRA_TENSOR_EXTENSION_RESHAPE_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// The dimsrc-D source read as a dimdst-D expression of shape shape_.
template <typename SrcExp, typename DType, int dimdst, int dimsrc>
struct ReshapeExp
    : public MakeTensorExp<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, SrcExp,
                           dimdst, DType> {
  typename ExpHolder<SrcExp>::type src_;
  // Last dimension of the source.
  index_t ishapex_;
  ReshapeExp(const SrcExp& src, const Shape<dimdst>& shape)
      : src_(detail::HoldRef(src)) {
    const Shape<dimsrc> ishape = ShapeCheck<dimsrc, SrcExp>::Check(src);
    if (ishape.Size() != shape.Size()) {
      ThrowTensorError("reshape: source shape ", ishape, " (", ishape.Size(),
                       " elements) cannot be viewed as ", shape, " (",
                       shape.Size(), " elements)");
    }
    ishapex_ = ishape[dimsrc - 1];
    this->shape_ = shape;
  }
};

template <typename SrcExp, typename DType, int dimdst, int dimsrc>
class Plan<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, DType> {
 public:
  explicit Plan(const ReshapeExp<SrcExp, DType, dimdst, dimsrc>& e)
      : src_(MakePlan(e.src_)),
        oshapex_(e.shape_[dimdst - 1]),
        ishapex_(e.ishapex_) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    if (oshapex_ == ishapex_) return src_.Eval(y, x);
    const index_t idx = y * oshapex_ + x;
    return src_.Eval(idx / ishapex_, idx % ishapex_);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t oshapex_, ishapex_;
};

template <typename SrcExp, typename DType, int dimdst, int dimsrc>
inline Plan<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, DType> MakePlan(
    const ReshapeExp<SrcExp, DType, dimdst, dimsrc>& e) {
  return Plan<ReshapeExp<SrcExp, DType, dimdst, dimsrc>, DType>(e);
}

// reshape(src, shape): src viewed as `shape`; the sizes must agree.
template <typename SrcExp, typename DType, int etype, int dimdst>
inline ReshapeExp<SrcExp, DType, dimdst, ExpInfo<SrcExp>::kDim> reshape(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> shape) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "reshape(src, shape): src must be a tensor expression, not a "
                "scalar");
  return ReshapeExp<SrcExp, DType, dimdst, ExpInfo<SrcExp>::kDim>(src.self(),
                                                                  shape);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_RESHAPE_H_
