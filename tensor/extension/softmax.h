// Numerically stable softmax and the gradient of softmax + cross-entropy.
//
//   Softmax(dst, energy)                2-D: each row of energy normalised
//                                       3-D (N, K, X): normalised over K for
//                                       every (n, x)
//   SoftmaxGrad(dst, prob, label)       dst = prob - one_hot(label): the
//                                       gradient of -log(prob[label]) with
//                                       respect to the energy; label has one
//                                       class index (as DType) per row
//                                       (2-D) or per (n, x) (3-D, label 2-D)
//   SoftmaxGrad(dst, prob, label, ignore_label)
//                                       rows whose label equals
//                                       ignore_label get a zero gradient
// Every row is shifted by its maximum before exp, so large energies neither
// overflow nor lose the result. dst may be the same tensor as the input.
// These are the CPU overloads; a GPU backend adds Tensor<gpu, ...>
// overloads that run the UMBRA_XINLINE row kernels below per row.
//
// Example:
//   using namespace umbra;
//   Softmax(prob, scores);              // (batch, classes)
//   SoftmaxGrad(gscores, prob, label);  // label: (batch,) class indices
#ifndef UMBRA_TENSOR_EXTENSION_SOFTMAX_H_
#define UMBRA_TENSOR_EXTENSION_SOFTMAX_H_

#include <algorithm>

#include "tensor/tensor_core.h"
#include "tensor/threads.h"

namespace umbra {
namespace softmax_detail {

// dst[k * dstride] = softmax over k in [0, n) of src[k * sstride].
template <typename DType>
UMBRA_XINLINE void SoftmaxRow(DType* dst, index_t dstride, const DType* src,
                              index_t sstride, index_t n) {
  DType mx = src[0];
  for (index_t k = 1; k < n; ++k) {
    if (src[k * sstride] > mx) mx = src[k * sstride];
  }
  DType sum = DType(0);
  for (index_t k = 0; k < n; ++k) {
    const DType e = DType(math::exp(DType(src[k * sstride] - mx)));
    dst[k * dstride] = e;
    sum = DType(sum + e);
  }
  const DType inv = DType(DType(1) / sum);
  for (index_t k = 0; k < n; ++k) {
    dst[k * dstride] = DType(dst[k * dstride] * inv);
  }
}

// dst[k * dstride] = src[k * sstride] - (k == label) for k in [0, n), or 0
// when the label is ignored.
template <typename DType>
UMBRA_XINLINE void SoftmaxGradRow(DType* dst, index_t dstride, const DType* src,
                                  index_t sstride, index_t n, index_t label,
                                  bool ignore) {
  for (index_t k = 0; k < n; ++k) {
    const DType p = src[k * sstride];
    dst[k * dstride] =
        ignore ? DType(0) : (k == label ? DType(p - DType(1)) : p);
  }
}

// Runs fn(row) for every row in [0, rows), on all threads when the work
// (rows * per_row elements) is large.
template <typename RowFn>
inline void ForEachRow(index_t rows, index_t per_row, const RowFn& fn) {
  const int ntasks = rows * per_row < GetParallelThreshold()
                         ? 1
                         : static_cast<int>(std::min<index_t>(
                               GetNumThreads(), std::max<index_t>(rows, 1)));
  ParallelFor(ntasks, [&](int task) {
    const index_t r0 = rows * task / ntasks, r1 = rows * (task + 1) / ntasks;
    for (index_t r = r0; r < r1; ++r) fn(r);
  });
}

template <int dim>
inline void CheckSameShape(const char* what, const Shape<dim>& dst,
                           const Shape<dim>& src) {
  if (dst != src) {
    ThrowTensorError(what, ": destination ", dst, " and source ", src,
                     " differ");
  }
}

// The class index of a label, checked against [0, n) unless it is ignored.
template <typename DType>
inline index_t CheckedLabel(const char* what, DType label, index_t n,
                            bool use_ignore, DType ignore_label) {
  if (use_ignore && label == ignore_label) return -1;
  const index_t k = static_cast<index_t>(label);
  if (k < 0 || k >= n || static_cast<DType>(k) != label) {
    ThrowTensorError(what, ": label ", static_cast<double>(label),
                     " is not a class index in [0, ", n, ")");
  }
  return k;
}

template <typename DType>
inline void SoftmaxGrad2D(const char* what, Tensor<cpu, 2, DType> dst,
                          const Tensor<cpu, 2, DType>& src,
                          const Tensor<cpu, 1, DType>& label, bool use_ignore,
                          DType ignore_label) {
  CheckSameShape(what, dst.shape_, src.shape_);
  if (label.size(0) != src.size(0)) {
    ThrowTensorError(what, ": label ", label.shape_, " needs one entry per row",
                     " of ", src.shape_);
  }
  const index_t n = src.size(1);
  for (index_t y = 0; y < src.size(0); ++y) {
    CheckedLabel(what, label[y], n, use_ignore, ignore_label);
  }
  ForEachRow(src.size(0), n, [&](index_t y) {
    const index_t k = CheckedLabel(what, label[y], n, use_ignore, ignore_label);
    SoftmaxGradRow(dst[y].dptr_, 1, src[y].dptr_, 1, n, k, k < 0);
  });
}

template <typename DType>
inline void SoftmaxGrad3D(const char* what, Tensor<cpu, 3, DType> dst,
                          const Tensor<cpu, 3, DType>& src,
                          const Tensor<cpu, 2, DType>& label, bool use_ignore,
                          DType ignore_label) {
  CheckSameShape(what, dst.shape_, src.shape_);
  if (label.size(0) != src.size(0) || label.size(1) != src.size(2)) {
    ThrowTensorError(what, ": label ", label.shape_, " must be (", src.size(0),
                     ",", src.size(2), ") for source ", src.shape_);
  }
  const index_t n = src.size(1);
  for (index_t b = 0; b < src.size(0); ++b) {
    for (index_t x = 0; x < src.size(2); ++x) {
      CheckedLabel(what, label[b][x], n, use_ignore, ignore_label);
    }
  }
  ForEachRow(src.size(0), n * src.size(2), [&](index_t b) {
    for (index_t x = 0; x < src.size(2); ++x) {
      const index_t k =
          CheckedLabel(what, label[b][x], n, use_ignore, ignore_label);
      SoftmaxGradRow(dst[b].dptr_ + x, dst.stride_, src[b].dptr_ + x,
                     src.stride_, n, k, k < 0);
    }
  });
}

}  // namespace softmax_detail

// dst[y] = softmax(energy[y]) for every row y.
template <typename DType>
inline void Softmax(Tensor<cpu, 2, DType> dst,
                    const Tensor<cpu, 2, DType>& energy) {
  softmax_detail::CheckSameShape("Softmax", dst.shape_, energy.shape_);
  if (energy.size(1) == 0) return;
  softmax_detail::ForEachRow(energy.size(0), energy.size(1), [&](index_t y) {
    softmax_detail::SoftmaxRow(dst[y].dptr_, 1, energy[y].dptr_, 1,
                               energy.size(1));
  });
}

// dst[n][:][x] = softmax(energy[n][:][x]) for every n and x.
template <typename DType>
inline void Softmax(Tensor<cpu, 3, DType> dst,
                    const Tensor<cpu, 3, DType>& energy) {
  softmax_detail::CheckSameShape("Softmax", dst.shape_, energy.shape_);
  if (energy.size(1) == 0) return;
  softmax_detail::ForEachRow(
      energy.size(0), energy.size(1) * energy.size(2), [&](index_t n) {
        for (index_t x = 0; x < energy.size(2); ++x) {
          softmax_detail::SoftmaxRow(dst[n].dptr_ + x, dst.stride_,
                                     energy[n].dptr_ + x, energy.stride_,
                                     energy.size(1));
        }
      });
}

// dst = src - one_hot(label) row by row; throws TensorError on a label that
// is not a class index.
template <typename DType>
inline void SoftmaxGrad(Tensor<cpu, 2, DType> dst,
                        const Tensor<cpu, 2, DType>& src,
                        const Tensor<cpu, 1, DType>& label) {
  softmax_detail::SoftmaxGrad2D("SoftmaxGrad", dst, src, label, false,
                                DType(0));
}
// As above; rows labelled ignore_label get a zero gradient.
template <typename DType>
inline void SoftmaxGrad(Tensor<cpu, 2, DType> dst,
                        const Tensor<cpu, 2, DType>& src,
                        const Tensor<cpu, 1, DType>& label,
                        const DType& ignore_label) {
  softmax_detail::SoftmaxGrad2D("SoftmaxGrad", dst, src, label, true,
                                ignore_label);
}
// dst[n][:][x] = src[n][:][x] - one_hot(label[n][x]).
template <typename DType>
inline void SoftmaxGrad(Tensor<cpu, 3, DType> dst,
                        const Tensor<cpu, 3, DType>& src,
                        const Tensor<cpu, 2, DType>& label) {
  softmax_detail::SoftmaxGrad3D("SoftmaxGrad", dst, src, label, false,
                                DType(0));
}
// As above; positions labelled ignore_label get a zero gradient.
template <typename DType>
inline void SoftmaxGrad(Tensor<cpu, 3, DType> dst,
                        const Tensor<cpu, 3, DType>& src,
                        const Tensor<cpu, 2, DType>& label,
                        const DType& ignore_label) {
  softmax_detail::SoftmaxGrad3D("SoftmaxGrad", dst, src, label, true,
                                ignore_label);
}

}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_SOFTMAX_H_
