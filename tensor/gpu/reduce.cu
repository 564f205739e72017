// Reduction and softmax kernels (reduce_gpu.h), instantiated for float and
// double.
#include <cuda_runtime.h>

#include <algorithm>

#include "tensor/gpu/reduce_kernels_cuda.h"

namespace umbra {
namespace gpu_detail {
template <typename Saver, typename Reducer, typename DType>
void ReduceKeep(Tensor<gpu, 1, DType> dst, Tensor<gpu, 2, DType> src2,
                index_t outer, index_t keep, index_t inner, DType scale) {
  LaunchReduceKeep<Saver, Reducer, DType>(dst, Reader(src2), outer, keep, inner,
                                          scale);
}

template <typename Saver, typename Reducer, typename DType>
void ReduceAxis(Tensor<gpu, 2, DType> dst2, Tensor<gpu, 2, DType> src2,
                index_t outer, index_t axis, index_t inner) {
  const index_t total = outer * inner;
  if (total == 0) return;
  cudaStream_t stream = Stream<gpu>::GetStream(dst2.stream_);
  if (inner == 1) {
    ReduceLastAxisKernel<Saver, Reducer, DType>
        <<<unsigned(Blocks(outer, kBlockThreads / kWarp)), kBlockThreads, 0,
           stream>>>(Writer(dst2), Reader(src2), outer, axis);
  } else {
    ReduceAxisKernel<Saver, Reducer, DType>
        <<<unsigned(Blocks(total, kBlockThreads)), kBlockThreads, 0, stream>>>(
            Writer(dst2), Reader(src2), outer, axis, inner);
  }
  UMBRA_CUDA_CHECK_LAUNCH(
      "ReduceAxisKernel", stream,
      detail::StrCat("reduce_with_axis (", Reducer::kName, ") of ", outer, "x",
                     axis, "x", inner, " into ", dst2.shape_));
}

template <typename DType>
void SoftmaxRows(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src) {
  if (dst.shape_.Size() == 0) return;
  cudaStream_t stream = Stream<gpu>::GetStream(dst.stream_);
  SoftmaxKernel<DType>
      <<<unsigned(std::min<index_t>(dst.size(0), MaxGridBlocks())),
         kBlockThreads, 0, stream>>>(dst.dptr_, dst.stride_, src.dptr_,
                                     src.stride_, dst.size(0), dst.size(1));
  UMBRA_CUDA_CHECK_LAUNCH("SoftmaxKernel", stream,
                          detail::StrCat("Softmax of ", src.shape_));
}

template <typename DType>
void SoftmaxGradRows(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src,
                     Tensor<gpu, 1, DType> label) {
  if (dst.shape_.Size() == 0) return;
  cudaStream_t stream = Stream<gpu>::GetStream(dst.stream_);
  SoftmaxGradKernel<DType>
      <<<unsigned(Blocks(dst.shape_.Size(), kBlockThreads)), kBlockThreads, 0,
         stream>>>(dst.dptr_, dst.stride_, src.dptr_, src.stride_, label.dptr_,
                   dst.size(0), dst.size(1));
  UMBRA_CUDA_CHECK_LAUNCH("SoftmaxGradKernel", stream,
                          detail::StrCat("SoftmaxGrad of ", src.shape_));
}

#define UMBRA_GPU_REDUCE_INSTANTIATE(Saver, Reducer, DType)                    \
  template void ReduceKeep<Saver, Reducer, DType>(                             \
      Tensor<gpu, 1, DType>, Tensor<gpu, 2, DType>, index_t, index_t, index_t, \
      DType);                                                                  \
  template void ReduceAxis<Saver, Reducer, DType>(Tensor<gpu, 2, DType>,       \
                                                  Tensor<gpu, 2, DType>,       \
                                                  index_t, index_t, index_t);
#define UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(Saver, DType)   \
  UMBRA_GPU_REDUCE_INSTANTIATE(Saver, red::sum, DType)     \
  UMBRA_GPU_REDUCE_INSTANTIATE(Saver, red::maximum, DType) \
  UMBRA_GPU_REDUCE_INSTANTIATE(Saver, red::minimum, DType)
#define UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(DType)           \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::saveto, DType)    \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::plusto, DType)    \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::minusto, DType)   \
  template void SoftmaxRows<DType>(Tensor<gpu, 2, DType>,  \
                                   Tensor<gpu, 2, DType>); \
  template void SoftmaxGradRows<DType>(                    \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 1, DType>);

UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(float)
UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(double)

}  // namespace gpu_detail
}  // namespace umbra
