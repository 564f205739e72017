// AllocSpace, FreeSpace and Copy for gpu tensors, explicitly instantiated for
// every rank and element type; pinned host memory.
#include <cuda_runtime.h>

#include <cstdint>

#include "tensor/gpu/check.h"
#include "tensor/gpu/memory_gpu.h"

namespace umbra {
namespace gpu_detail {

void* AllocPinnedHost(size_t bytes) {
  void* ptr = nullptr;
  if (bytes == 0) return nullptr;
  UMBRA_CUDA_CHECK(cudaMallocHost(&ptr, bytes),
                   detail::StrCat("PinnedTensor of ", bytes, " bytes"));
  return ptr;
}

void FreePinnedHost(void* ptr) {
  // Unchecked: runs in destructors (see memory_gpu.h).
  if (ptr != nullptr) cudaFreeHost(ptr);
}

namespace {

// Copies `rows` rows of `width` bytes between pitched buffers.
void Copy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
            size_t width, size_t rows, cudaMemcpyKind kind, Stream<gpu>* stream,
            const char* direction, const std::string& shapes) {
  if (width == 0 || rows == 0) return;
  const bool flat = (dpitch == width && spitch == width) || rows == 1;
  if (stream == nullptr) {
    if (flat) {
      UMBRA_CUDA_CHECK(cudaMemcpy(dst, src, width * rows, kind),
                       detail::StrCat("Copy ", direction, " ", shapes));
    } else {
      UMBRA_CUDA_CHECK(
          cudaMemcpy2D(dst, dpitch, src, spitch, width, rows, kind),
          detail::StrCat("Copy ", direction, " ", shapes));
    }
    return;
  }
  if (flat) {
    UMBRA_CUDA_CHECK(
        cudaMemcpyAsync(dst, src, width * rows, kind, stream->stream_),
        detail::StrCat("Copy ", direction, " ", shapes));
  } else {
    UMBRA_CUDA_CHECK(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows,
                                       kind, stream->stream_),
                     detail::StrCat("Copy ", direction, " ", shapes));
  }
}

template <typename DstDevice, typename SrcDevice, int dim, typename DType>
void CopyTensor(Tensor<DstDevice, dim, DType> dst,
                const Tensor<SrcDevice, dim, DType>& src, cudaMemcpyKind kind,
                Stream<gpu>* stream, const char* direction) {
  detail::CheckCopyShapes(dst.shape_, src.shape_);
  const Shape<2> s = dst.shape_.FlatTo2D();
  if (s.Size() == 0 || static_cast<const void*>(dst.dptr_) ==
                           static_cast<const void*>(src.dptr_)) {
    return;
  }
  Copy2D(dst.dptr_, dst.stride_ * sizeof(DType), src.dptr_,
         src.stride_ * sizeof(DType), s[1] * sizeof(DType), s[0], kind, stream,
         direction,
         detail::StrCat("destination ", dst.shape_, " (stride ", dst.stride_,
                        ") <- source ", src.shape_, " (stride ", src.stride_,
                        "), ", TypeFlagName(DataType<DType>::kFlag)));
}

}  // namespace
}  // namespace gpu_detail

template <int dim, typename DType>
void AllocSpace(Tensor<gpu, dim, DType>* obj, bool pad) {
  const Shape<2> s = obj->shape_.FlatTo2D();
  const size_t width = static_cast<size_t>(s[1]) * sizeof(DType);
  void* ptr = nullptr;
  if (pad && s[0] > 1 && width > 0) {
    size_t pitch = 0;
    UMBRA_CUDA_CHECK(
        cudaMallocPitch(&ptr, &pitch, width, static_cast<size_t>(s[0])),
        detail::StrCat("AllocSpace<gpu> ", obj->shape_, " ",
                       TypeFlagName(DataType<DType>::kFlag), " (padded)"));
    obj->stride_ = static_cast<index_t>(pitch / sizeof(DType));
  } else {
    const size_t bytes = width * static_cast<size_t>(s[0]);
    if (bytes > 0) {
      UMBRA_CUDA_CHECK(cudaMalloc(&ptr, bytes),
                       detail::StrCat("AllocSpace<gpu> ", obj->shape_, " ",
                                      TypeFlagName(DataType<DType>::kFlag),
                                      ", ", bytes, " bytes"));
    }
    obj->stride_ = s[1];
  }
  obj->dptr_ = static_cast<DType*>(ptr);
}

template <int dim, typename DType>
void FreeSpace(Tensor<gpu, dim, DType>* obj) {
  // Unchecked: runs in TensorContainer's destructor (see memory_gpu.h).
  if (obj->dptr_ != nullptr) cudaFree(obj->dptr_);
  obj->dptr_ = nullptr;
}

template <int dim, typename DType>
void Copy(Tensor<cpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
          Stream<gpu>* stream) {
  gpu_detail::CopyTensor(dst, src, cudaMemcpyDeviceToHost, stream,
                         "device->host");
}
template <int dim, typename DType>
void Copy(Tensor<gpu, dim, DType> dst, const Tensor<cpu, dim, DType>& src,
          Stream<gpu>* stream) {
  gpu_detail::CopyTensor(dst, src, cudaMemcpyHostToDevice, stream,
                         "host->device");
}
template <int dim, typename DType>
void Copy(Tensor<gpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
          Stream<gpu>* stream) {
  gpu_detail::CopyTensor(dst, src, cudaMemcpyDeviceToDevice, stream,
                         "device->device");
}

#define UMBRA_GPU_MEMORY_INSTANTIATE(dim, DType)                              \
  template void AllocSpace<dim, DType>(Tensor<gpu, dim, DType>*, bool);       \
  template void FreeSpace<dim, DType>(Tensor<gpu, dim, DType>*);              \
  template void Copy<dim, DType>(                                             \
      Tensor<cpu, dim, DType>, const Tensor<gpu, dim, DType>&, Stream<gpu>*); \
  template void Copy<dim, DType>(                                             \
      Tensor<gpu, dim, DType>, const Tensor<cpu, dim, DType>&, Stream<gpu>*); \
  template void Copy<dim, DType>(                                             \
      Tensor<gpu, dim, DType>, const Tensor<gpu, dim, DType>&, Stream<gpu>*);
#define UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(DType) \
  UMBRA_GPU_MEMORY_INSTANTIATE(1, DType)         \
  UMBRA_GPU_MEMORY_INSTANTIATE(2, DType)         \
  UMBRA_GPU_MEMORY_INSTANTIATE(3, DType)         \
  UMBRA_GPU_MEMORY_INSTANTIATE(4, DType)         \
  UMBRA_GPU_MEMORY_INSTANTIATE(5, DType)

UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(float)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(double)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(half_t)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(uint8_t)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(int8_t)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(int32_t)
UMBRA_GPU_MEMORY_INSTANTIATE_TYPE(int64_t)

}  // namespace umbra
