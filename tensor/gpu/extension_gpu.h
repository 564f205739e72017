// The GPU side of tensor/extension. Chainer expressions (broadcast,
// reduce_with_axis, pool, unpack_patch2col, swapaxis, ...) need nothing
// here: in a .cu file the generic kernel of map_kernels_cuda.h evaluates
// their plans. What this header adds are the reductions to 1-D that the
// extension evaluates with its own engine (reduce_except_dim,
// sumall_except_dim, sum_rows): the gpu overloads of MapReduceKeepLowest /
// MapReduceKeepHighDim, which the extension's ExpComplexEngine finds by
// argument-dependent lookup on Tensor<gpu, 1, DType>*.
//
// Include it (and depend on //tensor/gpu:extension_gpu) wherever such a
// reduction is assigned to a gpu tensor. Softmax and SoftmaxGrad on gpu
// tensors come from reduce_gpu.h.
//
// Example (.cu or .cc):
//   #include "tensor/gpu/extension_gpu.h"
//   gbias = sumall_except_dim<1>(gout);      // gout: Tensor<gpu, 4>
//   col_sum += sum_rows(m) * 0.5f;
// Example (.cu only: the source is an expression, read by a kernel):
//   gbias = sumall_except_dim<1>(gout * mask);
//
// Contracts: with a plain tensor as source, host .cc code works for float
// and double, red::sum / maximum / minimum, and =, +=, -=. Any other source
// expression must be evaluated in a .cu file (a compile-time error says so
// in host code).
#ifndef UMBRA_TENSOR_GPU_EXTENSION_GPU_H_
#define UMBRA_TENSOR_GPU_EXTENSION_GPU_H_

#include <type_traits>

#include "tensor/extension/reduce.h"
#include "tensor/gpu/map_gpu.h"
#include "tensor/gpu/reduce_gpu.h"
#include "tensor/gpu/tensor_gpu.h"

#ifdef __CUDACC__
#include "tensor/gpu/reduce_kernels_cuda.h"
#endif

namespace umbra {
namespace gpu_detail {

template <typename E>
struct IsGpuTensor : std::false_type {};
template <int dim, typename DType>
struct IsGpuTensor<Tensor<gpu, dim, DType>> : std::true_type {};

// Whether reduce.cu instantiates ReduceKeep<SV, Reducer, DType>.
template <typename SV, typename Reducer, typename DType>
struct ReduceKeepInstantiated {
  static const bool value = (std::is_same<DType, float>::value ||
                             std::is_same<DType, double>::value) &&
                            (std::is_same<Reducer, red::sum>::value ||
                             std::is_same<Reducer, red::maximum>::value ||
                             std::is_same<Reducer, red::minimum>::value) &&
                            (std::is_same<SV, sv::saveto>::value ||
                             std::is_same<SV, sv::plusto>::value ||
                             std::is_same<SV, sv::minusto>::value);
};

// dst[k] <SV> scale * Reducer over (o, i) of src viewed as outer x keep x
// inner; `cols` is the last dimension of src.
template <typename SV, typename Reducer, typename DType, typename E>
inline void ReduceExpKeep(Tensor<gpu, 1, DType> dst, const E& src,
                          index_t outer, index_t keep, index_t inner,
                          index_t cols, DType scale) {
  if constexpr (IsGpuTensor<E>::value &&
                ReduceKeepInstantiated<SV, Reducer, DType>::value) {
    ReduceKeep<SV, Reducer, DType>(dst, src.FlatTo2D(), outer, keep, inner,
                                   scale);
  } else {
#ifdef __CUDACC__
    using expr::MakePlan;
    typedef decltype(MakePlan(src)) SrcPlan;
    LaunchReduceKeep<SV, Reducer, DType>(
        dst, PlanReader<DType, SrcPlan>{MakePlan(src), cols}, outer, keep,
        inner, scale);
#else
    static_assert(AlwaysFalse<E>::value,
                  "reduce_except_dim / sumall_except_dim / sum_rows of an "
                  "expression (not a plain float/double tensor) into a gpu "
                  "tensor needs a CUDA kernel: evaluate it in a .cu file, or "
                  "assign the expression to a tensor first");
#endif
  }
}

}  // namespace gpu_detail

// The gpu overloads the extension's ExpComplexEngine calls.
template <typename SV, typename Reducer, typename DType, typename E>
inline void MapReduceKeepLowest(Tensor<gpu, 1, DType>* dst, const E& src,
                                const Shape<2>& sshape, DType scale) {
  gpu_detail::ReduceExpKeep<SV, Reducer>(*dst, src, sshape[0], sshape[1],
                                         index_t(1), sshape[1], scale);
}
template <typename SV, typename Reducer, typename DType, typename E, int dim>
inline void MapReduceKeepHighDim(Tensor<gpu, 1, DType>* dst, const E& src,
                                 const Shape<dim>& sshape, int dimkeep,
                                 DType scale) {
  gpu_detail::ReduceExpKeep<SV, Reducer>(
      *dst, src, gpu_detail::ProdRange(sshape, 0, dimkeep), sshape[dimkeep],
      gpu_detail::ProdRange(sshape, dimkeep + 1, dim), sshape[dim - 1], scale);
}

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_EXTENSION_GPU_H_
