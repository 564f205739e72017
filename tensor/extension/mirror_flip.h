// Reversal of an expression along one dimension.
//
//   mirror(src)        the last dimension reversed (horizontal image flip)
//   flip(src, axis)    dimension `axis` reversed
//
// Example:
//   using namespace umbra;
//   augmented = mirror(images);        // (N, C, H, W), W reversed
//   upside_down = flip(images, 2);     // H reversed
#ifndef UMBRA_TENSOR_EXTENSION_MIRROR_FLIP_H_
#define UMBRA_TENSOR_EXTENSION_MIRROR_FLIP_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// The source with dimension axis reversed.
template <typename SrcExp, typename DType, int srcdim>
struct FlipExp : public MakeTensorExp<FlipExp<SrcExp, DType, srcdim>, SrcExp,
                                      srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  // Size of the reversed axis and product of the dimensions between it and
  // the last one (1 when axis is the last dimension; then last_ is set).
  index_t size_, inner_;
  bool last_;
  FlipExp(const SrcExp& src, int axis) : src_(detail::HoldRef(src)) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    if (axis < 0 || axis >= srcdim) {
      ThrowTensorError("flip: axis ", axis, " out of range [0, ", srcdim - 1,
                       "] for source ", this->shape_);
    }
    size_ = this->shape_[axis];
    last_ = axis == srcdim - 1;
    inner_ = last_ ? 1 : this->shape_.ProdShape(axis + 1, srcdim - 1);
  }
};

template <typename SrcExp, typename DType, int srcdim>
class Plan<FlipExp<SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const FlipExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        size_(e.size_),
        inner_(e.inner_),
        last_(e.last_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    if (last_) return src_.Eval(i, size_ - 1 - j);
    const index_t rest = i % inner_;
    const index_t a = i / inner_ % size_;
    const index_t lead = i / inner_ / size_;
    return src_.Eval((lead * size_ + size_ - 1 - a) * inner_ + rest, j);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t size_, inner_;
  bool last_;
};

template <typename SrcExp, typename DType, int srcdim>
inline Plan<FlipExp<SrcExp, DType, srcdim>, DType> MakePlan(
    const FlipExp<SrcExp, DType, srcdim>& e) {
  return Plan<FlipExp<SrcExp, DType, srcdim>, DType>(e);
}

// flip(src, axis): src with dimension `axis` in reverse order.
template <typename SrcExp, typename DType, int etype>
inline FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> flip(
    const Exp<SrcExp, DType, etype>& src, int axis) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "flip: src must be a tensor expression, not a scalar");
  return FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), axis);
}

// mirror(src): src with its last dimension (image width) reversed.
template <typename SrcExp, typename DType, int etype>
inline FlipExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> mirror(
    const Exp<SrcExp, DType, etype>& src) {
  return flip(src, ExpInfo<SrcExp>::kDim - 1);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_MIRROR_FLIP_H_
