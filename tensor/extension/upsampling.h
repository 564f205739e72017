// upsampling_nearest(src, scale): nearest-neighbour upsampling of the last
// two dimensions (height, width) of an expression of rank >= 2 by an
// integer factor; every input pixel becomes a scale x scale block. Its
// gradient is sum pooling: pool<red::sum>(grad, scale, scale, scale, scale).
//
// Example:
//   using namespace umbra;
//   up = upsampling_nearest(feature_map, 2);  // (N, C, H, W) -> (N, C, 2H, 2W)
#ifndef UMBRA_TENSOR_EXTENSION_UPSAMPLING_H_
#define UMBRA_TENSOR_EXTENSION_UPSAMPLING_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Pixel (y, x) of the result is pixel (y / scale_, x / scale_) of src_.
template <typename SrcExp, typename DType, int srcdim>
struct UpSamplingNearestExp
    : public MakeTensorExp<UpSamplingNearestExp<SrcExp, DType, srcdim>, SrcExp,
                           srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  index_t scale_, in_height_;
  UpSamplingNearestExp(const SrcExp& src, index_t scale)
      : src_(detail::HoldRef(src)), scale_(scale) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    if (scale < 1) {
      ThrowTensorError("upsampling_nearest: scale must be >= 1, got ", scale,
                       " for source ", this->shape_);
    }
    in_height_ = this->shape_[srcdim - 2];
    this->shape_[srcdim - 2] *= scale;
    this->shape_[srcdim - 1] *= scale;
  }
};

template <typename SrcExp, typename DType, int srcdim>
class Plan<UpSamplingNearestExp<SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const UpSamplingNearestExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        scale_(e.scale_),
        new_height_(e.shape_[srcdim - 2]),
        in_height_(e.in_height_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t c = i / new_height_;
    const index_t h = i % new_height_ / scale_;
    return src_.Eval(c * in_height_ + h, j / scale_);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t scale_, new_height_, in_height_;
};

template <typename SrcExp, typename DType, int srcdim>
inline Plan<UpSamplingNearestExp<SrcExp, DType, srcdim>, DType> MakePlan(
    const UpSamplingNearestExp<SrcExp, DType, srcdim>& e) {
  return Plan<UpSamplingNearestExp<SrcExp, DType, srcdim>, DType>(e);
}

// upsampling_nearest(src, scale): see the file comment.
template <typename SrcExp, typename DType, int etype>
inline UpSamplingNearestExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>
upsampling_nearest(const Exp<SrcExp, DType, etype>& src, index_t scale) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "upsampling_nearest: the source must have rank >= 2 (..., "
                "height, width)");
  return UpSamplingNearestExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(),
                                                                    scale);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_UPSAMPLING_H_
