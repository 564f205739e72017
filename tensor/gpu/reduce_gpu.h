// Reductions and softmax on the GPU, usable from host .cc code: the GPU
// kernels behind the CPU extensions sumall_except_dim, sum_rows,
// reduce_except_dim and reduce_with_axis, and Softmax / SoftmaxGrad. Block
// and warp reductions (shuffles), one launch each, on the destination's
// stream. Instantiated for float and double, the savers =, += and -=, and
// the reducers red::sum, red::maximum and red::minimum.
//
// Example:
//   ReduceExceptDim<sv::saveto, red::sum, 1>(bias_grad, grad_4d);  // (C,)
//   SumRows(col_sums, mat);                    // col_sums[x] = sum_y mat[y][x]
//   ReduceWithAxis<sv::saveto, red::maximum, 1>(row_max, mat);  // (rows,)
//   Softmax(prob, logits);                     // row-wise
//   SoftmaxGrad(grad, prob, label);            // prob - one_hot(label)
//
// Contracts: shapes are checked and a mismatch throws TensorError naming
// both; accumulation is in DType (as on the CPU), in a different order, so
// sums agree with the CPU to rounding, not bitwise.
#ifndef UMBRA_TENSOR_GPU_REDUCE_GPU_H_
#define UMBRA_TENSOR_GPU_REDUCE_GPU_H_

#include "tensor/base.h"
#include "tensor/gpu/stream.h"
#include "tensor/operators.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_detail {

// dst[k] <Saver> scale * Reducer over (o, i) of the logical outer x keep x
// inner tensor whose row-major elements are those of src2 (a 2-D view).
template <typename Saver, typename Reducer, typename DType>
void ReduceKeep(Tensor<gpu, 1, DType> dst, Tensor<gpu, 2, DType> src2,
                index_t outer, index_t keep, index_t inner, DType scale);
// dst (flat index o * inner + i, a 2-D view) <Saver> Reducer over k of the
// logical outer x axis x inner tensor src2.
template <typename Saver, typename Reducer, typename DType>
void ReduceAxis(Tensor<gpu, 2, DType> dst2, Tensor<gpu, 2, DType> src2,
                index_t outer, index_t axis, index_t inner);
template <typename DType>
void SoftmaxRows(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src);
template <typename DType>
void SoftmaxGradRows(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src,
                     Tensor<gpu, 1, DType> label);

// Product of shape[begin, end).
template <int dim>
inline index_t ProdRange(const Shape<dim>& s, int begin, int end) {
  index_t p = 1;
  for (int i = begin; i < end; ++i) p *= s[i];
  return p;
}

}  // namespace gpu_detail

// dst[c] <Saver> scale * Reducer of src over every dimension but dimkeep
// (dst has src.size(dimkeep) elements): mshadow's reduce_except_dim; with
// red::sum it is sumall_except_dim.
template <typename Saver, typename Reducer, int dimkeep, int dim,
          typename DType>
inline void ReduceExceptDim(Tensor<gpu, 1, DType> dst,
                            const Tensor<gpu, dim, DType>& src,
                            DType scale = DType(1)) {
  static_assert(0 <= dimkeep && dimkeep < dim,
                "ReduceExceptDim: dimkeep must be a dimension of src");
  if (dst.size(0) != src.size(dimkeep)) {
    ThrowTensorError("reduce_except_dim<", dimkeep, "> (gpu): destination ",
                     dst.shape_, " vs source ", src.shape_);
  }
  gpu_detail::ReduceKeep<Saver, Reducer, DType>(
      dst, src.FlatTo2D(), gpu_detail::ProdRange(src.shape_, 0, dimkeep),
      src.size(dimkeep), gpu_detail::ProdRange(src.shape_, dimkeep + 1, dim),
      scale);
}

// dst[c] <Saver> scale * the sum of src over every dimension but dimkeep.
template <int dimkeep, typename Saver = sv::saveto, int dim, typename DType>
inline void SumAllExceptDim(Tensor<gpu, 1, DType> dst,
                            const Tensor<gpu, dim, DType>& src,
                            DType scale = DType(1)) {
  ReduceExceptDim<Saver, red::sum, dimkeep>(dst, src, scale);
}

// dst[x] <Saver> scale * sum over y of src[y][x] (mshadow's sum_rows).
template <typename Saver = sv::saveto, typename DType>
inline void SumRows(Tensor<gpu, 1, DType> dst, const Tensor<gpu, 2, DType>& src,
                    DType scale = DType(1)) {
  ReduceExceptDim<Saver, red::sum, 1>(dst, src, scale);
}

// dst <Saver> Reducer of src along `axis` (dst has src's shape without
// that dimension): mshadow's reduce_with_axis.
template <typename Saver, typename Reducer, int axis, int dim, typename DType>
inline void ReduceWithAxis(Tensor<gpu, dim - 1, DType> dst,
                           const Tensor<gpu, dim, DType>& src) {
  static_assert(0 <= axis && axis < dim,
                "ReduceWithAxis: axis must be a dimension of src");
  for (int i = 0, j = 0; i < dim; ++i) {
    if (i == axis) continue;
    if (dst.size(j) != src.size(i)) {
      ThrowTensorError("reduce_with_axis<", axis, "> (gpu): destination ",
                       dst.shape_, " vs source ", src.shape_);
    }
    ++j;
  }
  gpu_detail::ReduceAxis<Saver, Reducer, DType>(
      dst.FlatTo2D(), src.FlatTo2D(),
      gpu_detail::ProdRange(src.shape_, 0, axis), src.size(axis),
      gpu_detail::ProdRange(src.shape_, axis + 1, dim));
}

// dst[y] = softmax(src[y]) for every row (dst may be src).
template <typename DType>
inline void Softmax(Tensor<gpu, 2, DType> dst,
                    const Tensor<gpu, 2, DType>& src) {
  if (dst.shape_ != src.shape_) {
    ThrowTensorError("Softmax (gpu): destination ", dst.shape_, " vs source ",
                     src.shape_);
  }
  gpu_detail::SoftmaxRows(dst, src);
}

// dst[y][x] = src[y][x] - (x == label[y] ? 1 : 0): the gradient of
// softmax + cross-entropy at the logits, from the probabilities src.
template <typename DType>
inline void SoftmaxGrad(Tensor<gpu, 2, DType> dst,
                        const Tensor<gpu, 2, DType>& src,
                        const Tensor<gpu, 1, DType>& label) {
  if (dst.shape_ != src.shape_ || label.size(0) != src.size(0)) {
    ThrowTensorError("SoftmaxGrad (gpu): destination ", dst.shape_,
                     " vs probabilities ", src.shape_, " vs labels ",
                     label.shape_);
  }
  gpu_detail::SoftmaxGradRows(dst, src, label);
}

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_REDUCE_GPU_H_
