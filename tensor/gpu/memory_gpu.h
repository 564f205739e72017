// Device memory for Tensor<gpu>: the gpu overloads of AllocSpace, FreeSpace
// and Copy that tensor/memory.h declares (so NewTensor<gpu> and
// TensorContainer<gpu> work), and pinned (page-locked) host memory, which
// makes host<->device copies on a stream truly asynchronous.
//
// Example:
//   TensorContainer<gpu, 2> w(Shape2(64, 32), 0.0f);  // device memory
//   PinnedTensor<2> host(Shape2(64, 32));             // page-locked host
//   Copy(host.view(), w, stream);                     // async on stream
//   stream->Wait();                                   // host now valid
//
// Contracts:
//  - AllocSpace(Tensor<gpu>*) uses cudaMalloc, or cudaMallocPitch when pad is
//    true (rows then start on the device's pitch boundary); throws GpuError
//    naming the shape and the bytes when the device is out of memory.
//  - Copy(dst, src, stream): shapes must match (TensorError otherwise); any
//    strides. With stream == nullptr the copy is synchronous: when it
//    returns, dst holds the data. With a stream it is queued on that stream:
//    call stream->Wait() before reading host data or freeing src; it only
//    overlaps with host work when the host side is pinned memory.
//  - FreeSpace and the release of pinned memory never throw (they run in
//    destructors): cudaFree / cudaFreeHost fail only on an earlier
//    asynchronous fault, which the next checked call reports.
//  - Instantiated for dims 1..5 and float, double, half_t, uint8_t, int8_t,
//    int32_t, int64_t.
#ifndef UMBRA_TENSOR_GPU_MEMORY_GPU_H_
#define UMBRA_TENSOR_GPU_MEMORY_GPU_H_

#include <cstddef>

#include "tensor/base.h"
#include "tensor/gpu/stream.h"
#include "tensor/memory.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_detail {
// cudaMallocHost (throws GpuError on failure) / cudaFreeHost (never
// throws).
void* AllocPinnedHost(size_t bytes);
void FreePinnedHost(void* ptr);
}  // namespace gpu_detail

// An owning, page-locked host tensor (contiguous). Not copyable; movable.
template <int dim, typename DType = default_real_t>
class PinnedTensor : public Tensor<cpu, dim, DType> {
 public:
  PinnedTensor() = default;
  explicit PinnedTensor(const Shape<dim>& shape) {
    this->shape_ = shape;
    this->stride_ = shape[dim - 1];
    this->dptr_ = static_cast<DType*>(
        gpu_detail::AllocPinnedHost(sizeof(DType) * shape.Size()));
  }
  PinnedTensor(const PinnedTensor&) = delete;
  PinnedTensor& operator=(const PinnedTensor&) = delete;
  PinnedTensor(PinnedTensor&& other) noexcept : Tensor<cpu, dim, DType>(other) {
    other.dptr_ = nullptr;
  }
  PinnedTensor& operator=(PinnedTensor&& other) noexcept {
    if (this != &other) {
      gpu_detail::FreePinnedHost(this->dptr_);
      Tensor<cpu, dim, DType>::operator=(other);
      other.dptr_ = nullptr;
    }
    return *this;
  }
  ~PinnedTensor() { gpu_detail::FreePinnedHost(this->dptr_); }
  using Tensor<cpu, dim, DType>::operator=;
  // A plain view of the memory.
  Tensor<cpu, dim, DType> view() const {
    return Tensor<cpu, dim, DType>(this->dptr_, this->shape_, this->stride_,
                                   nullptr);
  }
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_MEMORY_GPU_H_
