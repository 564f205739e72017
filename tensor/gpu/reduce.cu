// Reduction and softmax kernels (reduce_gpu.h), instantiated for float and
// double.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

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

// "outer x classes x inner" for error messages.
template <typename DType>
std::string Geometry(const ClassView<DType>& v) {
  return detail::StrCat(v.outer, "x", v.classes, "x", v.inner,
                        " (outer x classes x inner)");
}

template <typename DType>
void SoftmaxClasses(ClassView<DType> dst, ClassView<DType> src,
                    Stream<gpu>* stream) {
  if (src.outer * src.classes * src.inner == 0) return;
  cudaStream_t raw = Stream<gpu>::GetStream(stream);
  if (src.inner == 1) {
    // Narrow rows get a narrower block: whole warps covering the classes.
    const index_t threads = std::min<index_t>(
        kBlockThreads, (src.classes + kWarp - 1) / kWarp * kWarp);
    SoftmaxRowsKernel<DType>
        <<<unsigned(std::min<index_t>(src.outer, MaxGridBlocks())),
           unsigned(threads), 0, raw>>>(dst, src);
  } else {
    SoftmaxInnerKernel<DType>
        <<<unsigned(Blocks(src.outer * src.inner, kBlockThreads)),
           kBlockThreads, 0, raw>>>(dst, src);
  }
  UMBRA_CUDA_CHECK_LAUNCH(
      src.inner == 1 ? "SoftmaxRowsKernel" : "SoftmaxInnerKernel", raw,
      "Softmax of " + Geometry(src));
}

template <typename DType>
void SoftmaxGradClasses(ClassView<DType> dst, ClassView<DType> src,
                        LabelView<DType> label, bool use_ignore,
                        DType ignore_label, Stream<gpu>* stream) {
  const index_t total = src.outer * src.classes * src.inner;
  if (total == 0) return;
  cudaStream_t raw = Stream<gpu>::GetStream(stream);
  SoftmaxGradKernel<DType>
      <<<unsigned(Blocks(total, kBlockThreads)), kBlockThreads, 0, raw>>>(
          dst, src, label, use_ignore, ignore_label);
  UMBRA_CUDA_CHECK_LAUNCH("SoftmaxGradKernel", raw,
                          "SoftmaxGrad of " + Geometry(src));
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
#define UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(DType)                              \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::saveto, DType)                       \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::plusto, DType)                       \
  UMBRA_GPU_REDUCE_INSTANTIATE_SAVER(sv::minusto, DType)                      \
  template void SoftmaxClasses<DType>(ClassView<DType>, ClassView<DType>,     \
                                      Stream<gpu>*);                          \
  template void SoftmaxGradClasses<DType>(ClassView<DType>, ClassView<DType>, \
                                          LabelView<DType>, bool, DType,      \
                                          Stream<gpu>*);

UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(float)
UMBRA_GPU_REDUCE_INSTANTIATE_TYPE(double)

}  // namespace gpu_detail
}  // namespace umbra
