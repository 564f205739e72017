// Spatial padding and cropping of the last two dimensions (height, width) of
// an expression of rank >= 2; leading dimensions (batch, channel) are kept.
//
//   pad(src, p) / pad(src, pad_y, pad_x)   zeros around every image
//   crop(src, Shape2(h, w))                the centred h x w window
//   crop(src, Shape2(h, w), y0, x0)        the h x w window at (y0, x0)
//
// Example:
//   using namespace umbra;
//   // a convolution with padding 2: pad the input, then unpack patches
//   col = unpack_patch2col(pad(data, 2), 5, 5, 1, 1, 1, 1);
//   // and the gradient back to the unpadded input
//   gdata = crop(pack_col2patch(gcol, padded_shape, 5, 5, 1, 1, 1, 1),
//                Shape2(28, 28));
#ifndef UMBRA_TENSOR_EXTENSION_CROP_PAD_H_
#define UMBRA_TENSOR_EXTENSION_CROP_PAD_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// The source with pad_y_ zero rows above and below and pad_x_ zero columns
// left and right of every image.
template <typename SrcExp, typename DType, int srcdim>
struct PaddingExp : public MakeTensorExp<PaddingExp<SrcExp, DType, srcdim>,
                                         SrcExp, srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  index_t pad_y_, pad_x_;
  index_t src_height_, src_width_;
  PaddingExp(const SrcExp& src, index_t pad_y, index_t pad_x)
      : src_(detail::HoldRef(src)), pad_y_(pad_y), pad_x_(pad_x) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    if (pad_y < 0 || pad_x < 0) {
      ThrowTensorError("pad: negative padding (", pad_y, ", ", pad_x,
                       ") for source ", this->shape_);
    }
    src_height_ = this->shape_[srcdim - 2];
    src_width_ = this->shape_[srcdim - 1];
    this->shape_[srcdim - 2] += 2 * pad_y;
    this->shape_[srcdim - 1] += 2 * pad_x;
  }
};

template <typename SrcExp, typename DType, int srcdim>
class Plan<PaddingExp<SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const PaddingExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        pad_y_(e.pad_y_),
        pad_x_(e.pad_x_),
        new_height_(e.shape_[srcdim - 2]),
        src_height_(e.src_height_),
        src_width_(e.src_width_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % new_height_;
    const index_t c = i / new_height_;
    const index_t h = y - pad_y_;
    const index_t w = j - pad_x_;
    if (h < 0 || w < 0 || h >= src_height_ || w >= src_width_) {
      return DType(0);
    }
    return src_.Eval(c * src_height_ + h, w);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t pad_y_, pad_x_, new_height_, src_height_, src_width_;
};

template <typename SrcExp, typename DType, int srcdim>
inline Plan<PaddingExp<SrcExp, DType, srcdim>, DType> MakePlan(
    const PaddingExp<SrcExp, DType, srcdim>& e) {
  return Plan<PaddingExp<SrcExp, DType, srcdim>, DType>(e);
}

// pad(src, pad_y, pad_x): zero padding of the last two dimensions; height
// grows by 2 * pad_y, width by 2 * pad_x.
template <typename SrcExp, typename DType, int etype>
inline PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> pad(
    const Exp<SrcExp, DType, etype>& src, index_t pad_y, index_t pad_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "pad(src, ...): src must have rank >= 2 (..., height, width)");
  return PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), pad_y,
                                                          pad_x);
}
// pad(src, p): the same padding p on both sides of height and width.
template <typename SrcExp, typename DType, int etype>
inline PaddingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> pad(
    const Exp<SrcExp, DType, etype>& src, index_t p) {
  return pad(src, p, p);
}

// The (height, width) window of every image of the source that starts at
// (offset_y_, offset_x_).
template <typename SrcExp, typename DType, int srcdim>
struct CroppingExp : public MakeTensorExp<CroppingExp<SrcExp, DType, srcdim>,
                                          SrcExp, srcdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  index_t offset_y_, offset_x_;
  index_t src_height_;
  CroppingExp(const SrcExp& src, Shape<2> cshape, index_t offset_y,
              index_t offset_x)
      : src_(detail::HoldRef(src)), offset_y_(offset_y), offset_x_(offset_x) {
    this->shape_ = ShapeCheck<srcdim, SrcExp>::Check(src);
    src_height_ = this->shape_[srcdim - 2];
    const index_t src_width = this->shape_[srcdim - 1];
    if (cshape[0] < 0 || cshape[1] < 0 || offset_y < 0 || offset_x < 0 ||
        offset_y + cshape[0] > src_height_ ||
        offset_x + cshape[1] > src_width) {
      ThrowTensorError("crop: window ", cshape, " at (", offset_y, ", ",
                       offset_x, ") does not fit in source ", this->shape_);
    }
    this->shape_[srcdim - 2] = cshape[0];
    this->shape_[srcdim - 1] = cshape[1];
  }
};

template <typename SrcExp, typename DType, int srcdim>
class Plan<CroppingExp<SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const CroppingExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)),
        offset_y_(e.offset_y_),
        offset_x_(e.offset_x_),
        new_height_(e.shape_[srcdim - 2]),
        src_height_(e.src_height_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % new_height_;
    const index_t c = i / new_height_;
    return src_.Eval(c * src_height_ + y + offset_y_, j + offset_x_);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t offset_y_, offset_x_, new_height_, src_height_;
};

template <typename SrcExp, typename DType, int srcdim>
inline Plan<CroppingExp<SrcExp, DType, srcdim>, DType> MakePlan(
    const CroppingExp<SrcExp, DType, srcdim>& e) {
  return Plan<CroppingExp<SrcExp, DType, srcdim>, DType>(e);
}

// crop(src, Shape2(h, w), offset_y, offset_x): the h x w window of every
// image starting at (offset_y, offset_x).
template <typename SrcExp, typename DType, int etype>
inline CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> crop(
    const Exp<SrcExp, DType, etype>& src, Shape<2> oshape, index_t offset_y,
    index_t offset_x) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "crop(src, ...): src must have rank >= 2 (..., height, "
                "width)");
  return CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(), oshape,
                                                           offset_y, offset_x);
}
// crop(src, Shape2(h, w)): the centred h x w window (offsets rounded down).
template <typename SrcExp, typename DType, int etype>
inline CroppingExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> crop(
    const Exp<SrcExp, DType, etype>& src, Shape<2> oshape) {
  static_assert(ExpInfo<SrcExp>::kDim >= 2,
                "crop(src, ...): src must have rank >= 2 (..., height, "
                "width)");
  const int kDim = ExpInfo<SrcExp>::kDim;
  const Shape<kDim> sshape = ShapeCheck<kDim, SrcExp>::Check(src.self());
  return crop(src, oshape, (sshape[kDim - 2] - oshape[0]) / 2,
              (sshape[kDim - 1] - oshape[1]) / 2);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_CROP_PAD_H_
