// im2col and col2im for convolution as a matrix product.
//
//   unpack_patch2col(img, ky, kx, sy, sx, dy, dx)
//       img (..., C, H, W) -> (C * ky * kx, N * OH * OW), where N is the
//       product of the leading dimensions, row (c * ky + i) * kx + j holds
//       input pixel (c, oy * sy + i * dy, ox * sx + j * dx) of output
//       position (n, oy, ox) in column (n * OH + oy) * OW + ox, and
//       OH = (H - (dy * (ky - 1) + 1)) / sy + 1 (likewise OW).
//   pack_col2patch(col, img_shape, ky, kx, sy, sx, dy, dx)
//       the adjoint: an expression of img_shape where every pixel is the sum
//       of the column entries unpack_patch2col would copy it to.
// Padding composes: unpack_patch2col(pad(img, p), ...) and
// crop(pack_col2patch(col, padded_shape, ...), Shape2(H, W)).
//
// Example (forward and backward of a convolution, batch of one image):
//   using namespace umbra;
//   col = unpack_patch2col(pad(data, 2), 5, 5, 1, 1, 1, 1);  // (25*C, OH*OW)
//   out_mat = dot(weight, col);                  // (K, C*25) x (C*25, OH*OW)
//   gcol = dot(weight.T(), gout_mat);
//   gdata = crop(pack_col2patch(gcol, pshape, 5, 5, 1, 1, 1, 1), Shape2(H, W));
#ifndef UMBRA_TENSOR_EXTENSION_SPATIAL_PATCH_H_
#define UMBRA_TENSOR_EXTENSION_SPATIAL_PATCH_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Geometry of a patch walk shared by both directions.
struct PatchGeometry {
  index_t psize_y, psize_x, pstride_y, pstride_x, pdilate_y, pdilate_x;
  index_t i_channel, i_height, i_width, o_height, o_width, num;
};

namespace detail {
// Checks the patch parameters against the image shape (N, C, H, W) (N the
// product of leading dimensions) and fills in the output size.
template <int dim>
inline PatchGeometry MakePatchGeometry(const char* what,
                                       const Shape<dim>& ishape,
                                       index_t psize_y, index_t psize_x,
                                       index_t pstride_y, index_t pstride_x,
                                       index_t pdilate_y, index_t pdilate_x) {
  PatchGeometry g;
  g.psize_y = psize_y;
  g.psize_x = psize_x;
  g.pstride_y = pstride_y;
  g.pstride_x = pstride_x;
  g.pdilate_y = pdilate_y;
  g.pdilate_x = pdilate_x;
  g.i_channel = ishape[dim - 3];
  g.i_height = ishape[dim - 2];
  g.i_width = ishape[dim - 1];
  g.num = ishape.ProdShape(0, dim - 3);
  if (psize_y < 1 || psize_x < 1 || pstride_y < 1 || pstride_x < 1 ||
      pdilate_y < 1 || pdilate_x < 1) {
    ThrowTensorError(what, ": patch (", psize_y, ", ", psize_x, "), stride (",
                     pstride_y, ", ", pstride_x, ") and dilation (", pdilate_y,
                     ", ", pdilate_x, ") must all be >= 1 (image ", ishape,
                     ")");
  }
  const index_t span_y = pdilate_y * (psize_y - 1) + 1;
  const index_t span_x = pdilate_x * (psize_x - 1) + 1;
  if (g.i_height < span_y || g.i_width < span_x) {
    ThrowTensorError(what, ": dilated patch (", span_y, ", ", span_x,
                     ") is larger than the image ", ishape);
  }
  g.o_height = (g.i_height - span_y) / pstride_y + 1;
  g.o_width = (g.i_width - span_x) / pstride_x + 1;
  return g;
}
}  // namespace detail

// im2col of a (..., C, H, W) source; see the file comment.
template <typename SrcExp, typename DType, int srcdim>
struct UnpackPatchToColXExp
    : public MakeTensorExp<UnpackPatchToColXExp<SrcExp, DType, srcdim>, SrcExp,
                           2, DType> {
  typename ExpHolder<SrcExp>::type src_;
  PatchGeometry geom_;
  UnpackPatchToColXExp(const SrcExp& src, index_t psize_y, index_t psize_x,
                       index_t pstride_y, index_t pstride_x, index_t pdilate_y,
                       index_t pdilate_x)
      : src_(detail::HoldRef(src)) {
    geom_ = detail::MakePatchGeometry(
        "unpack_patch2col", ShapeCheck<srcdim, SrcExp>::Check(src), psize_y,
        psize_x, pstride_y, pstride_x, pdilate_y, pdilate_x);
    this->shape_[0] = geom_.i_channel * psize_y * psize_x;
    this->shape_[1] = geom_.num * geom_.o_height * geom_.o_width;
  }
};

template <typename SrcExp, typename DType, int srcdim>
class Plan<UnpackPatchToColXExp<SrcExp, DType, srcdim>, DType> {
 public:
  explicit Plan(const UnpackPatchToColXExp<SrcExp, DType, srcdim>& e)
      : src_(MakePlan(e.src_)), g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t x_offset = i % g_.psize_x * g_.pdilate_x;
    const index_t idivp = i / g_.psize_x;
    const index_t y_offset = idivp % g_.psize_y * g_.pdilate_y;
    const index_t c = idivp / g_.psize_y;
    const index_t x = j % g_.o_width * g_.pstride_x + x_offset;
    const index_t jdivw = j / g_.o_width;
    const index_t y = jdivw % g_.o_height * g_.pstride_y + y_offset;
    const index_t n = jdivw / g_.o_height;
    return src_.Eval((n * g_.i_channel + c) * g_.i_height + y, x);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  PatchGeometry g_;
};

template <typename SrcExp, typename DType, int srcdim>
inline Plan<UnpackPatchToColXExp<SrcExp, DType, srcdim>, DType> MakePlan(
    const UnpackPatchToColXExp<SrcExp, DType, srcdim>& e) {
  return Plan<UnpackPatchToColXExp<SrcExp, DType, srcdim>, DType>(e);
}

// unpack_patch2col(img, psize_y, psize_x, pstride_y, pstride_x, pdilate_y,
// pdilate_x): the patch matrix of a (..., C, H, W) expression (rank >= 3).
template <typename SrcExp, typename DType, int etype>
inline UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>
unpack_patch2col(const Exp<SrcExp, DType, etype>& img, index_t psize_y,
                 index_t psize_x, index_t pstride_y, index_t pstride_x,
                 index_t pdilate_y = 1, index_t pdilate_x = 1) {
  static_assert(ExpInfo<SrcExp>::kDim >= 3,
                "unpack_patch2col: the image must have rank >= 3 (..., "
                "channel, height, width)");
  return UnpackPatchToColXExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(
      img.self(), psize_y, psize_x, pstride_y, pstride_x, pdilate_y, pdilate_x);
}

// col2im: an expression of the image shape summing the patch-matrix entries
// of every pixel.
template <typename SrcExp, typename DType, int dstdim>
struct PackColToPatchXExp
    : public MakeTensorExp<PackColToPatchXExp<SrcExp, DType, dstdim>, SrcExp,
                           dstdim, DType> {
  typename ExpHolder<SrcExp>::type src_;
  PatchGeometry geom_;
  PackColToPatchXExp(const SrcExp& src, Shape<dstdim> imshape, index_t psize_y,
                     index_t psize_x, index_t pstride_y, index_t pstride_x,
                     index_t pdilate_y, index_t pdilate_x)
      : src_(detail::HoldRef(src)) {
    geom_ =
        detail::MakePatchGeometry("pack_col2patch", imshape, psize_y, psize_x,
                                  pstride_y, pstride_x, pdilate_y, pdilate_x);
    const Shape<2> sshape = ShapeCheck<2, SrcExp>::Check(src);
    const Shape<2> want = Shape2(geom_.i_channel * psize_y * psize_x,
                                 geom_.num * geom_.o_height * geom_.o_width);
    if (sshape != want) {
      ThrowTensorError("pack_col2patch: patch matrix ", sshape,
                       " does not match image ", imshape, " with patch (",
                       psize_y, ", ", psize_x, "), stride (", pstride_y, ", ",
                       pstride_x, "), dilation (", pdilate_y, ", ", pdilate_x,
                       "): expected ", want);
    }
    this->shape_ = imshape;
  }
};

template <typename SrcExp, typename DType, int dstdim>
class Plan<PackColToPatchXExp<SrcExp, DType, dstdim>, DType> {
 public:
  explicit Plan(const PackColToPatchXExp<SrcExp, DType, dstdim>& e)
      : src_(MakePlan(e.src_)), g_(e.geom_) {}
  UMBRA_XINLINE DType Eval(index_t i, index_t j) const {
    const index_t y = i % g_.i_height;
    const index_t idivh = i / g_.i_height;
    const index_t c = idivh % g_.i_channel;
    const index_t n = idivh / g_.i_channel;
    const index_t x = j;
    DType res = DType(0);
    for (index_t py = 0; py < g_.psize_y; ++py) {
      const index_t yy = y - py * g_.pdilate_y;
      if (yy < 0) break;
      if (yy % g_.pstride_y != 0) continue;
      const index_t oy = yy / g_.pstride_y;
      if (oy >= g_.o_height) continue;
      for (index_t px = 0; px < g_.psize_x; ++px) {
        const index_t xx = x - px * g_.pdilate_x;
        if (xx < 0) break;
        if (xx % g_.pstride_x != 0) continue;
        const index_t ox = xx / g_.pstride_x;
        if (ox >= g_.o_width) continue;
        res = DType(res + src_.Eval((c * g_.psize_y + py) * g_.psize_x + px,
                                    (n * g_.o_height + oy) * g_.o_width + ox));
      }
    }
    return res;
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  PatchGeometry g_;
};

template <typename SrcExp, typename DType, int dstdim>
inline Plan<PackColToPatchXExp<SrcExp, DType, dstdim>, DType> MakePlan(
    const PackColToPatchXExp<SrcExp, DType, dstdim>& e) {
  return Plan<PackColToPatchXExp<SrcExp, DType, dstdim>, DType>(e);
}

// pack_col2patch(mat, imshape, psize_y, psize_x, pstride_y, pstride_x,
// pdilate_y, pdilate_x): the image-shaped adjoint of unpack_patch2col with
// the same parameters; mat must have the shape unpack_patch2col produces.
template <typename SrcExp, typename DType, int etype, int dstdim>
inline PackColToPatchXExp<SrcExp, DType, dstdim> pack_col2patch(
    const Exp<SrcExp, DType, etype>& mat, Shape<dstdim> imshape,
    index_t psize_y, index_t psize_x, index_t pstride_y, index_t pstride_x,
    index_t pdilate_y = 1, index_t pdilate_x = 1) {
  static_assert(ExpInfo<SrcExp>::kDim == 2,
                "pack_col2patch: the patch matrix must be a 2-D expression");
  static_assert(dstdim >= 3,
                "pack_col2patch: the image shape must have rank >= 3 (..., "
                "channel, height, width)");
  return PackColToPatchXExp<SrcExp, DType, dstdim>(
      mat.self(), imshape, psize_y, psize_x, pstride_y, pstride_x, pdilate_y,
      pdilate_x);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_SPATIAL_PATCH_H_
