// Stream<gpu>, the per-device default streams, device selection and the
// error reporting of the GPU backend.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <curand.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "tensor/gpu/check.h"
#include "tensor/gpu/stream.h"

namespace umbra {
namespace gpu_detail {

const char* CurandStatusName(curandStatus_t status) {
  switch (status) {
    case CURAND_STATUS_SUCCESS:
      return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH:
      return "CURAND_STATUS_VERSION_MISMATCH (header and library differ)";
    case CURAND_STATUS_NOT_INITIALIZED:
      return "CURAND_STATUS_NOT_INITIALIZED (generator not created)";
    case CURAND_STATUS_ALLOCATION_FAILED:
      return "CURAND_STATUS_ALLOCATION_FAILED (out of memory)";
    case CURAND_STATUS_TYPE_ERROR:
      return "CURAND_STATUS_TYPE_ERROR (wrong generator type)";
    case CURAND_STATUS_OUT_OF_RANGE:
      return "CURAND_STATUS_OUT_OF_RANGE (argument out of range)";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE:
      return "CURAND_STATUS_LENGTH_NOT_MULTIPLE (length must be even)";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE:
      return "CURAND_STATUS_LAUNCH_FAILURE (kernel launch failed)";
    case CURAND_STATUS_PREEXISTING_FAILURE:
      return "CURAND_STATUS_PREEXISTING_FAILURE (an earlier error)";
    case CURAND_STATUS_INITIALIZATION_FAILED:
      return "CURAND_STATUS_INITIALIZATION_FAILED (no GPU or driver?)";
    case CURAND_STATUS_ARCH_MISMATCH:
      return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR:
      return "CURAND_STATUS_INTERNAL_ERROR";
  }
  return "unknown cuRAND status";
}

void ThrowGpuError(const char* call, const char* library, const char* status,
                   const std::string& context, const char* file, int line) {
  // Clears a non-sticky runtime error (e.g. a failed cudaMalloc), so that
  // the next launch check does not report it again.
  cudaGetLastError();
  throw GpuError(detail::StrCat(
      library, " call ", call, " failed: ", status, context.empty() ? "" : " [",
      context, context.empty() ? "" : "]", " at ", file, ":", line));
}

bool SyncAfterLaunch() {
  static const bool sync = [] {
    const char* value = std::getenv("UMBRA_CUDA_SYNC");
    return value != nullptr && std::strcmp(value, "0") != 0 &&
           std::strcmp(value, "") != 0;
  }();
  return sync;
}

namespace {

// Restores the calling thread's device on scope exit.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    UMBRA_CUDA_CHECK(cudaGetDevice(&saved_), "");
    if (device != saved_) {
      UMBRA_CUDA_CHECK(cudaSetDevice(device),
                       detail::StrCat("device ", device));
    }
  }
  ~DeviceGuard() { cudaSetDevice(saved_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int saved_ = 0;
};

const char* CudnnStatus(cudnnStatus_t status) {
  return cudnnGetErrorString(status);
}

}  // namespace
}  // namespace gpu_detail

Stream<gpu>::~Stream() {
  // Destructors must not throw: errors here are dropped (the stream's work
  // already reported its own errors through Wait or the next call).
  int saved = 0;
  if (cudaGetDevice(&saved) != cudaSuccess) return;
  cudaSetDevice(device_);
  cudaStreamSynchronize(stream_);
  if (blas_handle_ != nullptr) cublasDestroy(blas_handle_);
  if (dnn_handle_ != nullptr) cudnnDestroy(dnn_handle_);
  if (owns_stream_ && stream_ != nullptr) cudaStreamDestroy(stream_);
  cudaSetDevice(saved);
}

void Stream<gpu>::Wait() {
  UMBRA_CUDA_CHECK(cudaStreamSynchronize(stream_),
                   detail::StrCat("Stream<gpu>::Wait on device ", device_));
}

bool Stream<gpu>::CheckIdle() {
  const cudaError_t status = cudaStreamQuery(stream_);
  if (status == cudaErrorNotReady) {
    cudaGetLastError();  // not an error: clear it
    return false;
  }
  UMBRA_CUDA_CHECK(status, "Stream<gpu>::CheckIdle");
  return true;
}

void Stream<gpu>::CreateBlasHandle() {
  if (blas_handle_ != nullptr) return;
  gpu_detail::DeviceGuard guard(device_);
  cublasHandle_t handle = nullptr;
  UMBRA_CUDA_CHECK(cublasCreate(&handle),
                   detail::StrCat("Stream<gpu> on device ", device_));
  blas_handle_ = handle;
  UMBRA_CUDA_CHECK(cublasSetStream(handle, stream_), "Stream<gpu>");
  // alpha and beta are passed from host memory.
  UMBRA_CUDA_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST),
                   "Stream<gpu>");
}

void Stream<gpu>::CreateDnnHandle() {
  if (dnn_handle_ != nullptr) return;
  gpu_detail::DeviceGuard guard(device_);
  cudnnHandle_t handle = nullptr;
  cudnnStatus_t status = cudnnCreate(&handle);
  if (status != CUDNN_STATUS_SUCCESS) {
    gpu_detail::ThrowGpuError(
        "cudnnCreate(&handle)", "cuDNN", gpu_detail::CudnnStatus(status),
        detail::StrCat("device ", device_), __FILE__, __LINE__);
  }
  dnn_handle_ = handle;
  status = cudnnSetStream(handle, stream_);
  if (status != CUDNN_STATUS_SUCCESS) {
    gpu_detail::ThrowGpuError("cudnnSetStream(handle, stream_)", "cuDNN",
                              gpu_detail::CudnnStatus(status), "", __FILE__,
                              __LINE__);
  }
}

cublasContext* Stream<gpu>::blas_handle() {
  CreateBlasHandle();
  return blas_handle_;
}

cudnnContext* Stream<gpu>::dnn_handle() {
  CreateDnnHandle();
  return dnn_handle_;
}

Stream<gpu>* Stream<gpu>::OrDefault(Stream<gpu>* stream) {
  return stream != nullptr ? stream : DefaultStream();
}

CUstream_st* Stream<gpu>::GetStream(Stream<gpu>* stream) {
  return stream != nullptr ? stream->stream_ : nullptr;
}

Stream<gpu>* DefaultStream() {
  static std::mutex mutex;
  // Never freed: handles must not be destroyed after the CUDA runtime has
  // shut down at exit.
  static std::vector<Stream<gpu>*>* streams = new std::vector<Stream<gpu>*>();
  const int device = GpuCurrentDevice();
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<int>(streams->size()) <= device) {
    streams->resize(device + 1, nullptr);
  }
  Stream<gpu>*& stream = (*streams)[device];
  if (stream == nullptr) {
    stream = new Stream<gpu>();
    stream->device_ = device;
  }
  return stream;
}

template <>
Stream<gpu>* NewStream<gpu>(bool create_blas_handle, bool create_dnn_handle,
                            int dev_id) {
  const int device = dev_id >= 0 ? dev_id : GpuCurrentDevice();
  gpu_detail::DeviceGuard guard(device);
  // A blocking stream: it orders with the legacy default stream, on which
  // tensors without a stream run, so mixing the two never races.
  cudaStream_t raw = nullptr;
  UMBRA_CUDA_CHECK(cudaStreamCreateWithFlags(&raw, cudaStreamDefault),
                   detail::StrCat("NewStream<gpu> on device ", device));
  Stream<gpu>* stream = new Stream<gpu>();
  stream->stream_ = raw;
  stream->owns_stream_ = true;
  stream->device_ = device;
  try {
    if (create_blas_handle) stream->CreateBlasHandle();
    if (create_dnn_handle) stream->CreateDnnHandle();
  } catch (...) {
    delete stream;
    throw;
  }
  return stream;
}

int GpuDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

namespace gpu_detail {
int MaxGridBlocks() {
  static std::mutex mutex;
  static std::vector<int>* blocks = new std::vector<int>();
  const int device = GpuCurrentDevice();
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<int>(blocks->size()) <= device) {
    blocks->resize(device + 1, 0);
  }
  int& n = (*blocks)[device];
  if (n == 0) {
    int sms = 0;
    UMBRA_CUDA_CHECK(
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        detail::StrCat("device ", device));
    n = sms * 32;
  }
  return n;
}
}  // namespace gpu_detail

int GpuCurrentDevice() {
  int device = 0;
  UMBRA_CUDA_CHECK(cudaGetDevice(&device), "GpuCurrentDevice");
  return device;
}

template <>
void SetDevice<gpu>(int dev_id) {
  const int count = GpuDeviceCount();
  if (dev_id < 0 || dev_id >= count) {
    throw GpuError(detail::StrCat("SetDevice<gpu>(", dev_id,
                                  "): no such device; ", count,
                                  " CUDA device(s) visible"));
  }
  UMBRA_CUDA_CHECK(cudaSetDevice(dev_id), detail::StrCat("device ", dev_id));
}

template <>
void InitTensorEngine<gpu>(int dev_id) {
  SetDevice<gpu>(dev_id);
  // cudaFree(0) creates the context now.
  UMBRA_CUDA_CHECK(cudaFree(nullptr),
                   detail::StrCat("InitTensorEngine<gpu>(", dev_id, ")"));
}

template <>
void ShutdownTensorEngine<gpu>() {
  UMBRA_CUDA_CHECK(cudaDeviceSynchronize(), "ShutdownTensorEngine<gpu>");
}

}  // namespace umbra
