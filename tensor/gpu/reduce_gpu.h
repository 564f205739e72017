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
//   Softmax(prob3, logits3);                   // (N, K, X): over K
//   SoftmaxGrad(grad, prob, label);            // prob - one_hot(label)
//   SoftmaxGrad(grad3, prob3, label2, DType(255));  // 255: no gradient
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

// A 2-D (rows, classes) or 3-D (outer, classes, inner) tensor as softmax
// sees it: element (n, k, x) is dptr[n * outer_stride + k * class_stride +
// x], and the softmax runs over k for every (n, x).
template <typename DType>
struct ClassView {
  DType* dptr;
  index_t outer, classes, inner, outer_stride, class_stride;
};
template <typename DType>
inline ClassView<DType> Classes(const Tensor<gpu, 2, DType>& t) {
  return {t.dptr_, t.size(0), t.size(1), 1, t.stride_, 1};
}
template <typename DType>
inline ClassView<DType> Classes(const Tensor<gpu, 3, DType>& t) {
  return {t.dptr_,  t.size(0), t.size(1), t.size(2), t.size(1) * t.stride_,
          t.stride_};
}
// The label of (n, x) is dptr[n * stride + x] (a class index as DType).
template <typename DType>
struct LabelView {
  const DType* dptr;
  index_t stride;
};
template <typename DType>
inline LabelView<DType> Labels(const Tensor<gpu, 1, DType>& t) {
  return {t.dptr_, 1};
}
template <typename DType>
inline LabelView<DType> Labels(const Tensor<gpu, 2, DType>& t) {
  return {t.dptr_, t.stride_};
}

// dst = softmax over the classes of src, on `stream` (dst may be src).
template <typename DType>
void SoftmaxClasses(ClassView<DType> dst, ClassView<DType> src,
                    Stream<gpu>* stream);
// dst = src - one_hot(label), zero where use_ignore and the label equals
// ignore_label; a label that is not a class index stops the kernel with a
// device-side assertion (see SoftmaxGrad).
template <typename DType>
void SoftmaxGradClasses(ClassView<DType> dst, ClassView<DType> src,
                        LabelView<DType> label, bool use_ignore,
                        DType ignore_label, Stream<gpu>* stream);

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

namespace gpu_detail {
template <int dim>
inline void CheckSoftmaxShapes(const char* what, const Shape<dim>& dst,
                               const Shape<dim>& src) {
  if (dst != src) {
    ThrowTensorError(what, " (gpu): destination ", dst, " vs source ", src);
  }
}
// Labels are (outer,) for 2-D probabilities, (outer, inner) for 3-D ones.
template <int dim>
inline void CheckLabelShape(const Shape<dim>& src,
                            const Shape<dim - 1>& label) {
  bool ok = label[0] == src[0];
  if constexpr (dim == 3) ok = ok && label[1] == src[2];
  if (!ok) {
    ThrowTensorError("SoftmaxGrad (gpu): labels ", label,
                     " must have one entry per row (2-D) or per (n, x) (3-D)",
                     " of probabilities ", src);
  }
}
template <int dim, typename DType>
inline void SoftmaxGradGpu(Tensor<gpu, dim, DType> dst,
                           const Tensor<gpu, dim, DType>& src,
                           const Tensor<gpu, dim - 1, DType>& label,
                           bool use_ignore, DType ignore_label) {
  static_assert(dim == 2 || dim == 3,
                "SoftmaxGrad (gpu): probabilities are 2-D (rows) or 3-D "
                "(N, K, X)");
  CheckSoftmaxShapes("SoftmaxGrad", dst.shape_, src.shape_);
  CheckLabelShape(src.shape_, label.shape_);
  SoftmaxGradClasses(Classes(dst), Classes(src), Labels(label), use_ignore,
                     ignore_label, dst.stream_);
}
}  // namespace gpu_detail

// The gpu overloads of tensor/extension/softmax.h's Softmax and
// SoftmaxGrad, with the same contracts, except for invalid labels: the CPU
// throws TensorError before writing, while the gpu checks each label in the
// kernel, and a label that is neither a class index nor ignore_label prints
// its position and trips a device-side assertion. The next checked CUDA
// call then throws GpuError (the launch itself under UMBRA_CUDA_SYNC=1),
// and, as after any device-side fault, the CUDA context is unusable.

// 2-D: dst[y] = softmax(src[y]) for every row. 3-D: dst[n][:][x] =
// softmax(src[n][:][x]) for every n and x. dst may be src.
template <int dim, typename DType>
inline void Softmax(Tensor<gpu, dim, DType> dst,
                    const Tensor<gpu, dim, DType>& src) {
  static_assert(dim == 2 || dim == 3,
                "Softmax (gpu): probabilities are 2-D (rows) or 3-D (N, K, X)");
  gpu_detail::CheckSoftmaxShapes("Softmax", dst.shape_, src.shape_);
  gpu_detail::SoftmaxClasses(gpu_detail::Classes(dst), gpu_detail::Classes(src),
                             dst.stream_);
}

// The gradient of softmax + cross-entropy at the logits, from the
// probabilities src: 2-D, dst[y][x] = src[y][x] - (x == label[y] ? 1 : 0);
// 3-D, dst[n][:][x] = src[n][:][x] - one_hot(label[n][x]).
template <int dim, typename DType>
inline void SoftmaxGrad(Tensor<gpu, dim, DType> dst,
                        const Tensor<gpu, dim, DType>& src,
                        const Tensor<gpu, dim - 1, DType>& label) {
  gpu_detail::SoftmaxGradGpu(dst, src, label, false, DType(0));
}
// As above; rows (2-D) or positions (3-D) labelled ignore_label get a zero
// gradient.
template <int dim, typename DType>
inline void SoftmaxGrad(Tensor<gpu, dim, DType> dst,
                        const Tensor<gpu, dim, DType>& src,
                        const Tensor<gpu, dim - 1, DType>& label,
                        const DType& ignore_label) {
  gpu_detail::SoftmaxGradGpu(dst, src, label, true, ignore_label);
}

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_REDUCE_GPU_H_
