// Internal: the definitions of FillTensor and MapTensor (map_gpu.h) and the
// macro that instantiates them for one element type and every saver. Each
// map_instances_*.cu instantiates a few types, so nvcc compiles each kernel
// once and the files build in parallel.
#ifndef UMBRA_TENSOR_GPU_MAP_INSTANCES_CUDA_H_
#define UMBRA_TENSOR_GPU_MAP_INSTANCES_CUDA_H_

#include "tensor/gpu/map_kernels_cuda.h"

namespace umbra {
namespace gpu_detail {

template <typename Saver, typename DType>
void FillTensor(Tensor<gpu, 2, DType> dst, DType value) {
  MapPlanGpu<Saver, DType>(&dst, expr::ScalarExp<DType>(value), dst.shape_);
}

template <typename Saver, typename DType>
void MapTensor(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src) {
  MapPlanGpu<Saver, DType>(&dst, src, dst.shape_);
}

}  // namespace gpu_detail
}  // namespace umbra

#define UMBRA_GPU_MAP_INSTANTIATE_SAVER(Saver, DType)                   \
  template void FillTensor<Saver, DType>(Tensor<gpu, 2, DType>, DType); \
  template void MapTensor<Saver, DType>(Tensor<gpu, 2, DType>,          \
                                        Tensor<gpu, 2, DType>);
#define UMBRA_GPU_MAP_INSTANTIATE(DType)              \
  UMBRA_GPU_MAP_INSTANTIATE_SAVER(sv::saveto, DType)  \
  UMBRA_GPU_MAP_INSTANTIATE_SAVER(sv::plusto, DType)  \
  UMBRA_GPU_MAP_INSTANTIATE_SAVER(sv::minusto, DType) \
  UMBRA_GPU_MAP_INSTANTIATE_SAVER(sv::multo, DType)   \
  UMBRA_GPU_MAP_INSTANTIATE_SAVER(sv::divto, DType)

#endif  // UMBRA_TENSOR_GPU_MAP_INSTANCES_CUDA_H_
