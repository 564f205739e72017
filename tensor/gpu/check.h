// Internal: checks the status of CUDA runtime, cuBLAS and cuRAND calls and
// throws GpuError naming the call, the library's error string and a context
// (usually the shapes involved). Includes the CUDA headers: only .cu files
// and the backend's own .cc files include it.
//
// Example:
//   UMBRA_CUDA_CHECK(cudaMemcpy(d, s, n, cudaMemcpyDefault),
//                    detail::StrCat("Copy ", shape));
#ifndef UMBRA_TENSOR_GPU_CHECK_H_
#define UMBRA_TENSOR_GPU_CHECK_H_

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <curand.h>

#include <string>

#include "tensor/gpu/stream.h"

namespace umbra {
namespace gpu_detail {

// The name of a cuRAND status (cuRAND has no string function).
const char* CurandStatusName(curandStatus_t status);

[[noreturn]] void ThrowGpuError(const char* call, const char* library,
                                const char* status, const std::string& context,
                                const char* file, int line);

inline const char* StatusString(cudaError_t status) {
  return cudaGetErrorString(status);
}
inline const char* StatusString(cublasStatus_t status) {
  return cublasGetStatusString(status);
}
inline const char* StatusString(curandStatus_t status) {
  return CurandStatusName(status);
}
inline bool Failed(cudaError_t status) { return status != cudaSuccess; }
inline bool Failed(cublasStatus_t status) {
  return status != CUBLAS_STATUS_SUCCESS;
}
inline bool Failed(curandStatus_t status) {
  return status != CURAND_STATUS_SUCCESS;
}
inline const char* LibraryName(cudaError_t) { return "CUDA"; }
inline const char* LibraryName(cublasStatus_t) { return "cuBLAS"; }
inline const char* LibraryName(curandStatus_t) { return "cuRAND"; }

// Whether UMBRA_CUDA_SYNC=1 asks to synchronise after every kernel launch,
// so that an error inside a kernel is reported by the launch that caused it.
bool SyncAfterLaunch();

}  // namespace gpu_detail
}  // namespace umbra

// Evaluates `call` (a CUDA, cuBLAS or cuRAND call); on failure throws
// GpuError naming the call, the error string and `context`, which is only
// evaluated on failure (a std::string expression).
#define UMBRA_CUDA_CHECK(call, context)                                \
  do {                                                                 \
    const auto umbra_status_ = (call);                                 \
    if (::umbra::gpu_detail::Failed(umbra_status_)) {                  \
      ::umbra::gpu_detail::ThrowGpuError(                              \
          #call, ::umbra::gpu_detail::LibraryName(umbra_status_),      \
          ::umbra::gpu_detail::StatusString(umbra_status_), (context), \
          __FILE__, __LINE__);                                         \
    }                                                                  \
  } while (0)

// Checks a kernel launch (cudaGetLastError, and a synchronisation when
// UMBRA_CUDA_SYNC=1) and names the kernel and `context` on failure.
#define UMBRA_CUDA_CHECK_LAUNCH(kernel_name, stream, context)          \
  do {                                                                 \
    UMBRA_CUDA_CHECK(                                                  \
        cudaGetLastError(),                                            \
        std::string("launch of ") + (kernel_name) + ": " + (context)); \
    if (::umbra::gpu_detail::SyncAfterLaunch()) {                      \
      UMBRA_CUDA_CHECK(                                                \
          cudaStreamSynchronize(stream),                               \
          std::string("kernel ") + (kernel_name) + ": " + (context));  \
    }                                                                  \
  } while (0)

#endif  // UMBRA_TENSOR_GPU_CHECK_H_
